// A statement's rows held compactly: numbers in typed columns, texts joined into long strings, each row made an object only when asked (a million rows in tens of MB, not hundreds, and nothing for the collector to trace).
import type { StatementRow } from './parsed-statement'
import { grown, TextBlocks } from './text-blocks'

/** The texts of a row, in the order they are kept. */
const TEXTS = 5

/**
 * Rows in the order they were read; append-only while the statement is read, never changed afterwards. A row's texts are
 * kept in TextBlocks, found again by their start and lengths.
 */
export class StatementRows implements Iterable<StatementRow> {
  private count = 0
  private lines = new Int32Array(256)
  private amounts = new Float64Array(256)
  /** Index into `names` of each row's day, and of its currency: a month has a few dozen days, a statement a currency or two. */
  private days = new Int32Array(256)
  private currencies = new Int32Array(256)
  private readonly names: string[] = []
  private readonly nameIndex = new Map<string, number>()
  /** Each row's texts' lengths (-1: null), TEXTS per row: id, time, reference, description, counterparty; row i is record i of `texts`. */
  private lengths = new Int32Array(256 * TEXTS)
  private readonly texts = new TextBlocks()

  get length(): number {
    return this.count
  }

  /** Adds the next row. */
  push(row: StatementRow): void {
    const i = this.count
    if (i === this.lines.length) this.grow()
    this.lines[i] = row.line
    this.amounts[i] = row.amountMinor
    this.days[i] = this.nameOf(row.date)
    this.currencies[i] = this.nameOf(row.currency)
    const texts = this.texts
    texts.record()
    const at = i * TEXTS
    this.lengths[at] = texts.put(row.id)
    this.lengths[at + 1] = texts.put(row.time)
    this.lengths[at + 2] = texts.put(row.reference)
    this.lengths[at + 3] = texts.put(row.description)
    this.lengths[at + 4] = texts.put(row.counterparty)
    this.count++
  }

  /** Ends the reading: the block being filled is joined, so nothing holds on to the texts the rows were read from. */
  finish(): this {
    this.texts.finish()
    return this
  }

  /** Row i as an object of its own (negative: from the end, as an array's at). */
  at(index: number): StatementRow {
    const i = index < 0 ? index + this.count : index
    if (!(i >= 0 && i < this.count)) throw new RangeError(`No row ${index} of ${this.count}.`)
    const block = this.texts.blockOfRecord(i)
    const k = i * TEXTS
    const start = this.texts.startOfRecord(i)
    const l0 = this.lengths[k] as number
    const l1 = this.lengths[k + 1] as number
    const l2 = this.lengths[k + 2] as number
    const l3 = this.lengths[k + 3] as number
    const l4 = this.lengths[k + 4] as number
    // Each text follows the one before it; a null one takes no room.
    const a1 = start + l0
    const a2 = a1 + Math.max(0, l1)
    const a3 = a2 + Math.max(0, l2)
    const a4 = a3 + Math.max(0, l3)
    const id = block.slice(start, a1)
    const time = l1 < 0 ? null : block.slice(a1, a2)
    const reference = l2 < 0 ? null : block.slice(a2, a3)
    const description = l3 < 0 ? null : block.slice(a3, a4)
    const counterparty = l4 < 0 ? null : block.slice(a4, a4 + l4)
    return {
      id,
      line: this.lines[i] as number,
      date: this.names[this.days[i] as number] as string,
      time,
      amountMinor: this.amounts[i] as number,
      currency: this.names[this.currencies[i] as number] as string,
      reference,
      description,
      counterparty
    }
  }

  /** Rows from..to (to excluded) as objects: a preview's first rows. */
  slice(from = 0, to = this.count): StatementRow[] {
    const out: StatementRow[] = []
    for (let i = Math.max(0, from); i < Math.min(to, this.count); i++) out.push(this.at(i))
    return out
  }

  /** Every row as objects: for tests and small statements only. */
  all(): StatementRow[] {
    return this.slice()
  }

  /** Row i's id, without making the row. */
  idAt(i: number): string {
    const start = this.texts.startOfRecord(i)
    return this.texts.blockOfRecord(i).slice(start, start + (this.lengths[i * TEXTS] as number))
  }

  /** Row i's currency, without making the row. */
  currencyAt(i: number): string {
    return this.names[this.currencies[i] as number] as string
  }

  *[Symbol.iterator](): Iterator<StatementRow> {
    for (let i = 0; i < this.count; i++) yield this.at(i)
  }

  private nameOf(name: string): number {
    let k = this.nameIndex.get(name)
    if (k === undefined) {
      k = this.names.length
      this.names.push(name)
      this.nameIndex.set(name, k)
    }
    return k
  }

  private grow(): void {
    this.lines = grown(this.lines)
    this.amounts = grown(this.amounts)
    this.days = grown(this.days)
    this.currencies = grown(this.currencies)
    this.lengths = grown(this.lengths)
  }
}
