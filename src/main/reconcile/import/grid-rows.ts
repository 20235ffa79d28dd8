// A grid's rows as the statement reader reads them: a plain list (a workbook's, a structured format's), or a CSV file's held compactly, each row made an array only when it is read.
import { grown, TextBlocks } from './text-blocks'

/** What the reader asks of a grid's rows: a plain string[][] is one. */
export interface GridRows {
  readonly length: number
  at(index: number): string[] | undefined
  slice(from?: number, to?: number): string[][]
}

/** Rows appended in order, their cells' texts in TextBlocks: a million rows of a CSV file in about the size of its text. */
export class CompactRows implements GridRows {
  private count = 0
  /** Row i (record i of `texts`): its cells are cellLengths[firstCell[i]] to cellLengths[firstCell[i + 1] - 1]. */
  private firstCell = new Int32Array(257)
  private cellLengths = new Int32Array(2048)
  private readonly texts = new TextBlocks()

  get length(): number {
    return this.count
  }

  push(row: readonly string[]): void {
    const i = this.count
    if (i + 1 === this.firstCell.length) this.firstCell = grown(this.firstCell)
    let cell = this.firstCell[i] as number
    while (cell + row.length > this.cellLengths.length) this.cellLengths = grown(this.cellLengths)
    this.texts.record()
    for (const text of row) this.cellLengths[cell++] = text.length
    // One piece per row: its cells one after the other.
    this.texts.put(row.join(''))
    this.firstCell[i + 1] = cell
    this.count++
  }

  /** Row i's cells, a new array (negative: from the end); undefined past the last row, as a list's. */
  at(index: number): string[] | undefined {
    const i = index < 0 ? index + this.count : index
    if (!(i >= 0 && i < this.count)) return undefined
    const block = this.texts.blockOfRecord(i)
    const to = this.firstCell[i + 1] as number
    const cells = new Array<string>(to - (this.firstCell[i] as number))
    let at = this.texts.startOfRecord(i)
    for (let c = this.firstCell[i] as number, k = 0; c < to; c++, k++) {
      const n = this.cellLengths[c] as number
      cells[k] = block.slice(at, at + n)
      at += n
    }
    return cells
  }

  slice(from = 0, to = this.count): string[][] {
    const out: string[][] = []
    for (let i = Math.max(0, from); i < Math.min(to, this.count); i++) out.push(this.at(i) as string[])
    return out
  }

  /** Ends the reading: nothing holds on to the text the rows were read from. */
  finish(): this {
    this.texts.finish()
    return this
  }
}
