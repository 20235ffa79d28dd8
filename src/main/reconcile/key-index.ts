// References by their normalised key without building a string per key: a 31-bit hash of the key's characters in typed-array tables, every hit checked character by character.

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

/** Whether two texts have the same key ("ab-12 " and "AB12"), with no string built. */
export function sameKey(a: string, b: string): boolean {
  // The common case: the statement wrote the reference exactly as the provider did.
  if (a === b) return true
  let i = 0
  let j = 0
  for (;;) {
    let ca = -1
    while (i < a.length && (ca = keyChar(a.charCodeAt(i))) < 0) i++
    let cb = -1
    while (j < b.length && (cb = keyChar(b.charCodeAt(j))) < 0) j++
    if (i >= a.length || j >= b.length) return i >= a.length && j >= b.length
    if (ca !== cb) return false
    i++
    j++
  }
}

/**
 * A map from reference keys to numbers. Entries live in arrays; an open-addressed table of typed
 * arrays (no JS Map) holds each hash's first entry, and entries with the same hash are chained, so a
 * hash collision never merges two keys.
 */
export class KeyIndex {
  /** Slot → the hash stored there (-1: empty) and that hash's first entry. */
  private slotHash: Int32Array
  private slotEntry: Int32Array
  private slots = 0
  private readonly texts: string[] = []
  private values: Int32Array
  private next: Int32Array

  /** `expected`: about how many keys will be added (everything grows past it when needed). */
  constructor(expected = 1024) {
    const capacity = Math.max(16, expected)
    let size = 16
    while (size < capacity * 2) size *= 2
    this.slotHash = new Int32Array(size).fill(-1)
    this.slotEntry = new Int32Array(size)
    this.values = new Int32Array(capacity)
    this.next = new Int32Array(capacity)
  }

  /** The slot of `hash`: where it is, or the empty slot where it would go. */
  private slot(hash: number): number {
    const mask = this.slotHash.length - 1
    let i = (hash ^ (hash >>> 15)) & mask
    for (;;) {
      const h = this.slotHash[i] as number
      if (h === hash || h === -1) return i
      i = (i + 1) & mask
    }
  }

  private find(hash: number, text: string): number {
    const i = this.slot(hash)
    if (this.slotHash[i] === -1) return -1
    for (let e = this.slotEntry[i] as number; e >= 0; e = this.next[e] as number) if (sameKey(this.texts[e] as string, text)) return e
    return -1
  }

  private insert(hash: number, text: string, value: number): void {
    const e = this.texts.length
    if (e === this.values.length) {
      const values = new Int32Array(e * 2)
      values.set(this.values)
      this.values = values
      const chain = new Int32Array(e * 2)
      chain.set(this.next)
      this.next = chain
    }
    const i = this.slot(hash)
    this.texts.push(text)
    this.values[e] = value
    if (this.slotHash[i] === -1) {
      this.slotHash[i] = hash
      this.next[e] = -1
      this.slots++
    } else this.next[e] = this.slotEntry[i] as number
    this.slotEntry[i] = e
    if (this.slots * 2 > this.slotHash.length) this.rehash()
  }

  private rehash(): void {
    const oldHash = this.slotHash
    const oldEntry = this.slotEntry
    this.slotHash = new Int32Array(oldHash.length * 2).fill(-1)
    this.slotEntry = new Int32Array(oldHash.length * 2)
    for (let i = 0; i < oldHash.length; i++) {
      if (oldHash[i] === -1) continue
      const j = this.slot(oldHash[i] as number)
      this.slotHash[j] = oldHash[i] as number
      this.slotEntry[j] = oldEntry[i] as number
    }
  }

  get(text: string): number | undefined {
    const hash = keyHash(text)
    if (hash < 0) return undefined
    const e = this.find(hash, text)
    return e < 0 ? undefined : this.values[e]
  }

  /** Adds the key with this value unless it is there already; returns the value it already had, or undefined. */
  add(text: string, value: number): number | undefined {
    const hash = keyHash(text)
    if (hash < 0) return undefined
    const e = this.find(hash, text)
    if (e >= 0) return this.values[e]
    this.insert(hash, text, value)
    return undefined
  }

  set(text: string, value: number): void {
    const hash = keyHash(text)
    if (hash < 0) return
    const e = this.find(hash, text)
    if (e >= 0) this.values[e] = value
    else this.insert(hash, text, value)
  }
}
