// Many short texts (a statement's cells, its rows' references) kept as pieces of a few long strings: found again by block, start and length, with no object per text for the collector to trace.

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

  /** Starts a record: the block its texts go in (a new one when this one is full). */
  record(): number {
    if (this.used >= BLOCK) this.seal()
    return this.blocks.length
  }

  /** Where the next text starts in its block. */
  get offset(): number {
    return this.used
  }

  /** Adds a text to the record; its length, -1 for null. */
  put(text: string | null): number {
    if (text === null) return -1
    this.pieces.push(text)
    this.used += text.length
    return text.length
  }

  /** Block `block` as one string (the one being filled is joined first). */
  block(block: number): string {
    if (block === this.blocks.length) this.seal()
    return this.blocks[block] as string
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
export function grown<T extends Int32Array | Float64Array>(a: T, size = a.length * 2): T {
  const b = new (a.constructor as new (n: number) => T)(size)
  b.set(a)
  return b
}
