// Many short texts (a CSV's cells, a statement's rows' references) kept as pieces of a few long strings: found again by record, start and length, with no object per text for the collector to trace.

/** Characters per block (the texts of one record never straddle two blocks). */
const BLOCK = 1 << 22

/**
 * Texts appended record by record, each record's texts one after the other in one block. A block is joined into one
 * string when it is full or a text of it is read (a flat copy: the pieces, often slices of a whole file's text, are let
 * go); a text comes back exactly as it was given.
 */
export class TextBlocks {
  private readonly blocks: string[] = []
  private pieces: string[] = []
  private used = 0
  private records = 0
  /** Each record's block and where its texts start in it. */
  private blockOf = new Int32Array(256)
  private startOf = new Int32Array(256)

  /** Starts the next record (in a new block when this one is full), its texts then put one after the other; its number. */
  record(): number {
    if (this.used >= BLOCK) this.seal()
    const r = this.records++
    if (r === this.blockOf.length) {
      this.blockOf = grown(this.blockOf)
      this.startOf = grown(this.startOf)
    }
    this.blockOf[r] = this.blocks.length
    this.startOf[r] = this.used
    return r
  }

  /** Adds a text to the record; its length, -1 for null. */
  put(text: string | null): number {
    if (text === null) return -1
    this.pieces.push(text)
    this.used += text.length
    return text.length
  }

  /** The block record r's texts are in, as one string (the one being filled is joined first). */
  blockOfRecord(r: number): string {
    const block = this.blockOf[r] as number
    if (block === this.blocks.length) this.seal()
    return this.blocks[block] as string
  }

  /** Where record r's first text starts in its block. */
  startOfRecord(r: number): number {
    return this.startOf[r] as number
  }

  /** Joins the block being filled, so nothing holds on to the texts it was given. */
  finish(): void {
    if (this.pieces.length > 0) this.seal()
  }

  private seal(): void {
    this.blocks.push(this.pieces.join(''))
    this.pieces = []
    this.used = 0
  }
}

/** A typed array twice as long, holding what it held. */
export function grown<T extends Int32Array | Float64Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2)
  b.set(a)
  return b
}
