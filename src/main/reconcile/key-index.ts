// References by their normalised key without building a string per key: a 31-bit hash of the key's characters in typed-array tables, each key's characters kept in one buffer, every hit checked character by character.

/** Letters and digits, upper-cased; -1 for anything else (spaces, punctuation, other scripts are not part of a key). */
export function keyChar(c: number): number {
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
 * - The table is open-addressed, each slot a hash and where its entry is, side by side.
 * - The entries sit one after another in one buffer: the value, the key's length and its characters
 *   (upper-case ASCII letters and digits), so a hit reads one slot and one entry, never a string
 *   object scattered in the heap.
 * - Many keys added at once (`addAll`) go in region by region, so the part of the table being
 *   written stays in the cache: the partitioned build of a database's hash join.
 * Every hit is checked character by character: keys whose hashes are equal take separate slots, so
 * a hash collision never merges two keys.
 */
export class KeyIndex {
  /** What `find` and `add` answer for a key that is not there. */
  static readonly MISSING = -0x80000000
  /**
   * One small index kept as long as the class. V8 drops the optimised code of the methods below when
   * the last index of this shape is collected, so without it every match after a full collection (in
   * the host, between runs) would start in unoptimised code. A static field, not a module variable:
   * a bundler keeps a used class's fields, but may drop an unused variable and leave its object to die.
   */
  static readonly keptForItsShape = new KeyIndex(1)
  /** Slot k: table[2k] the hash (−1: empty), table[2k + 1] its entry (an index into `ints`). */
  private table: Int32Array
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
    this.table = new Int32Array(size * 2).fill(-1)
    this.mask = size - 1
    this.ints = new Int32Array(Math.max(256, expected * 6))
    this.bytes = new Uint8Array(this.ints.buffer)
  }

  /** The slot holding `text`'s key, or the empty slot where it would go. */
  private slot(hash: number, text: string): number {
    const table = this.table
    for (let k = home(hash, this.mask); ; k = (k + 1) & this.mask) {
      const h = table[k * 2] as number
      if (h === -1 || (h === hash && this.holds(table[k * 2 + 1] as number, text))) return k
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
   * Writes `text`'s key as an entry at the end of the buffer with this value, not yet in the table,
   * and returns its hash (−1: no key, and nothing written): one pass over the text both hashes it
   * and copies it. `kept` moves the end past it.
   */
  private stage(text: string, value: number): number {
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
    this.ints[e] = value
    this.ints[e + 1] = at - start
    return at === start ? -1 : h >>> 1
  }

  /** Moves the end past the entry staged last. */
  private kept(): number {
    const e = this.end
    this.end = e + 2 + (((this.ints[e + 1] as number) + 3) >> 2)
    return e
  }

  /** The slot holding entry e's key (another entry's), or the empty slot where it would go. */
  private slotOfEntry(hash: number, e: number): number {
    const table = this.table
    for (let k = home(hash, this.mask); ; k = (k + 1) & this.mask) {
      const h = table[k * 2] as number
      if (h === -1) return k
      // The entries themselves are read only when the hashes are equal: they are anywhere in memory.
      if (h === hash && this.sameEntries(table[k * 2 + 1] as number, e)) return k
    }
  }

  private sameEntries(a: number, b: number): boolean {
    const length = this.ints[a + 1] as number
    if (this.ints[b + 1] !== length) return false
    const bytes = this.bytes
    const at = (a + 2) * 4
    const bt = (b + 2) * 4
    for (let i = 0; i < length; i++) if (bytes[at + i] !== bytes[bt + i]) return false
    return true
  }

  /** Puts entry e in empty slot k. */
  private place(k: number, hash: number, e: number): void {
    this.table[k * 2] = hash
    this.table[k * 2 + 1] = e
    if (++this.keys * 2 > this.mask + 1) this.grow()
  }

  private grow(): void {
    const old = this.table
    this.mask = this.mask * 2 + 1
    this.table = new Int32Array((this.mask + 1) * 2).fill(-1)
    for (let at = 0; at < old.length; at += 2) {
      const hash = old[at] as number
      if (hash === -1) continue
      let k = home(hash, this.mask)
      while (this.table[k * 2] !== -1) k = (k + 1) & this.mask
      this.table[k * 2] = hash
      this.table[k * 2 + 1] = old[at + 1] as number
    }
  }

  /** The value of `text`'s key, or MISSING. */
  find(text: string): number {
    const hash = keyHash(text)
    if (hash < 0) return KeyIndex.MISSING
    const k = this.slot(hash, text)
    return this.table[k * 2] === -1 ? KeyIndex.MISSING : (this.ints[this.table[k * 2 + 1] as number] as number)
  }

  /** Adds the key with this value unless it is there already; returns the value it already had, or MISSING. */
  add(text: string, value: number): number {
    const hash = this.stage(text, value)
    if (hash < 0) return KeyIndex.MISSING
    const k = this.slotOfEntry(hash, this.end)
    if (this.table[k * 2] !== -1) return this.ints[this.table[k * 2 + 1] as number] as number
    this.place(k, hash, this.kept())
    return KeyIndex.MISSING
  }

  set(text: string, value: number): void {
    const hash = this.stage(text, value)
    if (hash < 0) return
    const k = this.slotOfEntry(hash, this.end)
    if (this.table[k * 2] === -1) this.place(k, hash, this.kept())
    else this.ints[this.table[k * 2 + 1] as number] = value
  }

  /**
   * Adds `count` keys, key j being `textOf(j)` with value `valueOf(j)`, as `add` would one after
   * another in that order, and calls `found(j, had)` for each key that was there already (it may
   * change the index: each key's adds and calls keep their order). Other keys' adds are not in that
   * order: the keys are read and copied in one pass, then added region by region. Yields after
   * every 65,536 keys read or added, so a caller can let its event loop run.
   */
  *addAll(
    count: number,
    textOf: (j: number) => string,
    valueOf: (j: number) => number,
    found: (j: number, had: number) => void
  ): Generator<void> {
    // Room for every key first, so the table does not grow (and move its regions) midway.
    while ((this.keys + count) * 2 > this.mask + 1) this.grow()
    const hashes = new Int32Array(count)
    const entries = new Int32Array(count)
    for (let from = 0; from < count; from += STEP) {
      for (let j = from; j < Math.min(count, from + STEP); j++) {
        const hash = this.stage(textOf(j), valueOf(j))
        hashes[j] = hash
        if (hash >= 0) entries[j] = this.kept()
      }
      yield
    }
    const shift = Math.max(0, Math.log2(this.mask + 1) - REGION_BITS)
    const regions = ((this.mask + 1) >>> shift) + 1
    const starts = new Int32Array(regions + 1)
    for (let j = 0; j < count; j++)
      if ((hashes[j] as number) >= 0) (starts[(home(hashes[j] as number, this.mask) >>> shift) + 1] as number)++
    for (let r = 0; r < regions; r++) starts[r + 1] = (starts[r + 1] as number) + (starts[r] as number)
    const total = starts[regions] as number
    // Each key's hash, entry and number, region by region (each region in key order).
    const byRegion = new Int32Array(total * 3)
    for (let j = 0; j < count; j++) {
      const hash = hashes[j] as number
      if (hash < 0) continue
      const at = (starts[home(hash, this.mask) >>> shift] as number)++ * 3
      byRegion[at] = hash
      byRegion[at + 1] = entries[j] as number
      byRegion[at + 2] = j
    }
    for (let from = 0; from < total; from += STEP) {
      for (let at = from * 3; at < Math.min(total, from + STEP) * 3; at += 3) {
        const hash = byRegion[at] as number
        const k = this.slotOfEntry(hash, byRegion[at + 1] as number)
        if (this.table[k * 2] === -1) this.place(k, hash, byRegion[at + 1] as number)
        else found(byRegion[at + 2] as number, this.ints[this.table[k * 2 + 1] as number] as number)
      }
      yield
    }
  }
}

/** Keys read or added between two yields of addAll. */
const STEP = 65_536

/** Slots per region: 2^14 slots of 8 bytes, 128 KB, which a core's cache holds. */
const REGION_BITS = 14

/** The first slot a hash probes. */
function home(hash: number, mask: number): number {
  return (hash ^ (hash >>> 15)) & mask
}
