// Which keys a run's provider records hold, kept small (a Bloom filter of their references, ten bits a key): a decision in place can tell that a line names no record by its key without reading the records.
import { keyChar } from './key-index'
import { normaliseReference } from './references'

/** Bits kept per key, and hashes per key: about one key in a hundred that no record holds is taken for one that does. */
const BITS_PER_KEY = 10
const HASHES = 7

/** Two independent hashes of a key's characters (as KeyIndex compares them: letters upper case, digits, nothing else); null for no key. */
function hashes(text: string): [number, number] | null {
  let a = 0x811c9dc5 | 0
  let b = 5381
  let any = false
  for (let i = 0; i < text.length; i++) {
    const c = keyChar(text.charCodeAt(i))
    if (c < 0) continue
    any = true
    a = Math.imul(a ^ c, 16777619)
    b = (Math.imul(b, 33) + c) | 0
  }
  // The second hash odd, so its multiples reach every bit of a filter whose size is a power of two.
  return any ? [a >>> 0, (b | 1) >>> 0] : null
}

/** A filter of these keys (a record's reference, service reference and further keys, as written). */
export function keyFilter(keys: Iterable<string>): Buffer {
  const list = [...keys]
  let bits = 1024
  while (bits < list.length * BITS_PER_KEY) bits *= 2
  const filter = Buffer.alloc(bits / 8)
  for (const key of list) {
    const h = hashes(key)
    if (!h) continue
    for (let k = 0; k < HASHES; k++) {
      const bit = (h[0] + Math.imul(k, h[1])) & (bits - 1)
      filter[bit >> 3] = (filter[bit >> 3] as number) | (1 << (bit & 7))
    }
  }
  return filter
}

/** Whether a key may be one the filter was made of: false only when surely not. */
export function mayHoldKey(filter: Buffer, key: string): boolean {
  const h = hashes(key)
  if (!h) return false
  const bits = filter.length * 8
  for (let k = 0; k < HASHES; k++) {
    const bit = (h[0] + Math.imul(k, h[1])) & (bits - 1)
    if (((filter[bit >> 3] as number) & (1 << (bit & 7))) === 0) return false
  }
  return true
}

/** The keys (normalised as the exact keys compare them) that two or more records hold, sorted. */
export function keysHeldTwice(keys: Iterable<string>): string[] {
  const seen = new Set<string>()
  const twice = new Set<string>()
  for (const key of keys) {
    const k = normaliseReference(key)
    if (k === '') continue
    if (seen.has(k)) twice.add(k)
    else seen.add(k)
  }
  return [...twice].sort()
}
