// References by their normalised key without building a string per key: a 31-bit hash of the key's characters into small-integer maps, every hit checked character by character.

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
 * A map from reference keys to numbers. Entries live in arrays; the hash map holds each hash's
 * first entry and entries with the same hash are chained, so a hash collision never merges two keys.
 */
export class KeyIndex {
  private readonly first = new Map<number, number>()
  private readonly texts: string[] = []
  private readonly values: number[] = []
  private readonly next: number[] = []

  private find(hash: number, text: string): number {
    let e = this.first.get(hash)
    while (e !== undefined && e >= 0) {
      if (sameKey(this.texts[e] as string, text)) return e
      e = this.next[e]
    }
    return -1
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
    this.texts.push(text)
    this.values.push(value)
    this.next.push(this.first.get(hash) ?? -1)
    this.first.set(hash, this.texts.length - 1)
    return undefined
  }

  set(text: string, value: number): void {
    const hash = keyHash(text)
    if (hash < 0) return
    const e = this.find(hash, text)
    if (e >= 0) {
      this.values[e] = value
      return
    }
    const added = this.texts.length
    this.texts.push(text)
    this.values.push(value)
    this.next.push(this.first.get(hash) ?? -1)
    this.first.set(hash, added)
  }
}
