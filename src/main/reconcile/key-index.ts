// References by their normalised key without building a string per key: a 31-bit hash of the key's characters in typed-array tables, each key's characters kept in one buffer, every hit checked character by character.

/** Letters and digits, upper-cased; -1 for anything else (spaces, punctuation, other scripts are not part of a key). */
function keyChar(c: number): number {
  if (c >= 97 && c <= 122) return c - 32
  if ((c >= 65 && c <= 90) || (c >= 48 && c <= 57)) return c
  return -1
}

/** FNV-1a over the key's characters, as a non-negative small integer; -1 when the text holds no key character. */
export function keyHash(text: string): number {
  let h = 0x811c9dc5 | 0
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = keyChar(text.charCodeAt(i))
    if (c < 0) continue
    h = Math.imul(h ^ c, 16777619)
    n++
  }
  return n === 0 ? -1 : h >>> 1
}

/**
 * A map from reference keys to numbers, laid out for a million keys: a table far larger than the
 * processor's cache is read at random, so each look-up should touch as few places as it can.
 * - The table is open-addressed: probing reads only an array of hashes (4 bytes a slot), and a
 *   second array gives the matching slot's entry.
 * - The entries sit one after another in one buffer: the value, the key's length and its characters
 *   (upper-case ASCII letters and digits), so a hit reads one entry, never a string object
 *   scattered in the heap.
 * Every hit is checked character by character: keys whose hashes are equal take separate slots, so
 * a hash collision never merges two keys.
 */
export class KeyIndex {
  /** What `find` and `add` answer for a key that is not there. */
  static readonly MISSING = -0x80000000
  /** Slot k: slotHash[k] the hash (−1: empty), slotEntry[k] its entry (an index into `ints`). */
  private slotHash: Int32Array
  private slotEntry: Int32Array
  private mask: number
  private keys = 0
  /** Entry e: ints[e] the value, ints[e + 1] the key's length, then its characters in `bytes` from (e + 2) × 4. */
  private ints: Int32Array
  private bytes: Uint8Array
  /** The next entry's index in `ints`. */
  private end = 0

  /** `expected`: about how many keys will be added (everything grows past it when needed). */
  constructor(expected = 1024) {
    let size = 16
    while (size < Math.max(16, expected) * 2) size *= 2
    this.slotHash = new Int32Array(size).fill(-1)
    this.slotEntry = new Int32Array(size)
    this.mask = size - 1
    this.ints = new Int32Array(Math.max(256, expected * 6))
    this.bytes = new Uint8Array(this.ints.buffer)
  }

  /** The slot holding this key, or the empty slot where it would go. */
  private slot(hash: number, text: string): number {
    const table = this.slotHash
    for (let k = (hash ^ (hash >>> 15)) & this.mask; ; k = (k + 1) & this.mask) {
      const h = table[k] as number
      if (h === -1 || (h === hash && this.holds(this.slotEntry[k] as number, text))) return k
    }
  }

  /** Whether entry e's key is `text`'s key. */
  private holds(e: number, text: string): boolean {
    const bytes = this.bytes
    let at = (e + 2) * 4
    const end = at + (this.ints[e + 1] as number)
    for (let i = 0; i < text.length; i++) {
      const c = keyChar(text.charCodeAt(i))
      if (c < 0) continue
      if (at === end || bytes[at] !== c) return false
      at++
    }
    return at === end
  }

  /**
   * Writes `text`'s key as the next entry, not yet kept, and returns its hash (−1: no key): one pass
   * over the text both hashes it and copies it.
   */
  private stage(text: string): number {
    const e = this.end
    // The characters are at most text.length bytes, rounded up to whole ints.
    if (e + 2 + ((text.length + 3) >> 2) > this.ints.length) {
      const ints = new Int32Array(Math.max(this.ints.length * 2, e + 2 + text.length))
      ints.set(this.ints)
      this.ints = ints
      this.bytes = new Uint8Array(ints.buffer)
    }
    const bytes = this.bytes
    const start = (e + 2) * 4
    let at = start
    let h = 0x811c9dc5 | 0
    for (let i = 0; i < text.length; i++) {
      const c = keyChar(text.charCodeAt(i))
      if (c < 0) continue
      h = Math.imul(h ^ c, 16777619)
      bytes[at++] = c
    }
    this.ints[e + 1] = at - start
    return at === start ? -1 : h >>> 1
  }

  /** The slot holding the staged key, or the empty slot where it would go. */
  private stagedSlot(hash: number): number {
    const table = this.slotHash
    const bytes = this.bytes
    const staged = (this.end + 2) * 4
    const length = this.ints[this.end + 1] as number
    for (let k = (hash ^ (hash >>> 15)) & this.mask; ; k = (k + 1) & this.mask) {
      const h = table[k] as number
      if (h === -1) return k
      if (h !== hash) continue
      const e = this.slotEntry[k] as number
      if (this.ints[e + 1] !== length) continue
      const at = (e + 2) * 4
      let same = true
      for (let i = 0; same && i < length; i++) same = bytes[at + i] === bytes[staged + i]
      if (same) return k
    }
  }

  /** Keeps the staged key as an entry with this value, in slot k. */
  private keep(k: number, hash: number, value: number): void {
    const e = this.end
    this.ints[e] = value
    this.end = e + 2 + (((this.ints[e + 1] as number) + 3) >> 2)
    this.slotHash[k] = hash
    this.slotEntry[k] = e
    if (++this.keys * 2 > this.mask + 1) this.grow()
  }

  private grow(): void {
    const oldHash = this.slotHash
    const oldEntry = this.slotEntry
    this.mask = this.mask * 2 + 1
    this.slotHash = new Int32Array(this.mask + 1).fill(-1)
    this.slotEntry = new Int32Array(this.mask + 1)
    for (let j = 0; j < oldHash.length; j++) {
      const hash = oldHash[j] as number
      if (hash === -1) continue
      let k = (hash ^ (hash >>> 15)) & this.mask
      while (this.slotHash[k] !== -1) k = (k + 1) & this.mask
      this.slotHash[k] = hash
      this.slotEntry[k] = oldEntry[j] as number
    }
  }

  /** The value of `text`'s key, or MISSING. */
  find(text: string): number {
    const hash = keyHash(text)
    if (hash < 0) return KeyIndex.MISSING
    const k = this.slot(hash, text)
    return this.slotHash[k] === -1 ? KeyIndex.MISSING : (this.ints[this.slotEntry[k] as number] as number)
  }

  /** Adds the key with this value unless it is there already; returns the value it already had, or MISSING. */
  add(text: string, value: number): number {
    const hash = this.stage(text)
    if (hash < 0) return KeyIndex.MISSING
    const k = this.stagedSlot(hash)
    if (this.slotHash[k] !== -1) return this.ints[this.slotEntry[k] as number] as number
    this.keep(k, hash, value)
    return KeyIndex.MISSING
  }

  set(text: string, value: number): void {
    const hash = this.stage(text)
    if (hash < 0) return
    const k = this.stagedSlot(hash)
    if (this.slotHash[k] === -1) this.keep(k, hash, value)
    else this.ints[this.slotEntry[k] as number] = value
  }
}

/**
 * One small index kept for the module's life. V8 drops the optimised code of the methods above when
 * the last index of this shape is collected, so without it every match after a full collection (in
 * the host, between runs) would start in unoptimised code: measured as a third slower at 100,000.
 */
export const KEPT_FOR_ITS_SHAPE = new KeyIndex(1)
KEPT_FOR_ITS_SHAPE.add('A1', 0)
