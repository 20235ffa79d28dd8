// A statement row's id from its content: the same row in any file or order has the same id, and identical rows are told apart by their occurrence.
import { keyChar } from '../key-index'

/** Murmur3's final mix: every input bit reaches every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b | 0)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35 | 0)
  return h ^ (h >>> 16)
}

/** The three hash lanes of the last rowContentId, for IdSet. */
const LANES = new Int32Array(3)

/** The ids seen so far, as their three hash lanes in an open-addressed table: no string hashed, nothing for the collector. */
class IdSet {
  private lanes = new Int32Array(3 << 16)
  private used = new Uint8Array(1 << 16)
  private count = 0

  /** Adds an id by its lanes; true when it was there already. */
  add(a: number, b: number, c: number): boolean {
    if ((this.count + 1) * 2 > this.used.length) this.grow()
    const mask = this.used.length - 1
    for (let i = (a ^ (b >>> 7)) & mask; ; i = (i + 1) & mask) {
      if (!this.used[i]) {
        this.used[i] = 1
        this.lanes[i * 3] = a
        this.lanes[i * 3 + 1] = b
        this.lanes[i * 3 + 2] = c
        this.count++
        return false
      }
      if (this.lanes[i * 3] === a && this.lanes[i * 3 + 1] === b && this.lanes[i * 3 + 2] === c) return true
    }
  }

  private grow(): void {
    const lanes = this.lanes
    const used = this.used
    this.used = new Uint8Array(used.length * 2)
    this.lanes = new Int32Array(this.used.length * 3)
    this.count = 0
    for (let i = 0; i < used.length; i++)
      if (used[i]) this.add(lanes[i * 3] as number, lanes[i * 3 + 1] as number, lanes[i * 3 + 2] as number)
  }
}

/**
 * A row's id from its content: a 96-bit hash (three independent 32-bit multiply-xor lanes over the
 * UTF-16 code units, each finished by murmur3's mix) in base64url, of the text
 * `currency␟day␟minor␟reference␟description␟counterparty` (␟ is U+001F, the reference normalised:
 * its ASCII letters and digits, upper-cased). The text is fed to the lanes piece by piece, never
 * built. Not for secrets: ids only need to be stable and not collide (a million rows: about 1 in
 * 10^16), and hash at a million rows a second. Also sets LANES.
 */
export function rowContentId(
  currency: string,
  day: string,
  minor: number,
  reference: string | null,
  description: string | null,
  counterparty: string | null
): string {
  // The lanes are locals and every piece is fed in this one loop: a call per character cost most of the time.
  let a = 0x6a09e667 | 0
  let b = 0x3c6ef372 | 0
  let c = 0x510e527f | 0
  let length = 0
  const amount = String(minor)
  for (let piece = 0; piece < 6; piece++) {
    if (piece > 0) {
      // The separator before every piece but the first.
      a = Math.imul(a ^ 0x1f, 0x01000193)
      b = Math.imul(b ^ 0x1f, 0x5bd1e995)
      c = Math.imul(c ^ 0x1f, 0x27d4eb2f)
      length++
    }
    if (piece === 3) {
      // The reference by its key: ASCII letters (upper-cased) and digits only.
      if (reference)
        for (let i = 0; i < reference.length; i++) {
          const k = keyChar(reference.charCodeAt(i))
          if (k < 0) continue
          a = Math.imul(a ^ k, 0x01000193)
          b = Math.imul(b ^ k, 0x5bd1e995)
          c = Math.imul(c ^ k, 0x27d4eb2f)
          length++
        }
      continue
    }
    const text = piece === 0 ? currency : piece === 1 ? day : piece === 2 ? amount : piece === 4 ? description : counterparty
    if (!text) continue
    for (let i = 0; i < text.length; i++) {
      const k = text.charCodeAt(i)
      a = Math.imul(a ^ k, 0x01000193)
      b = Math.imul(b ^ k, 0x5bd1e995)
      c = Math.imul(c ^ k, 0x27d4eb2f)
    }
    length += text.length
  }
  LANES[0] = fmix32(a ^ length)
  LANES[1] = fmix32(b)
  LANES[2] = fmix32(c)
  return `f:${base64url(LANES)}`
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

function laneByte(lanes: Int32Array, k: number): number {
  return ((lanes[k >> 2] as number) >>> ((k & 3) * 8)) & 255
}

/** The lanes' 12 bytes, each lane little-endian (as Buffer's writeInt32LE writes it), in base64url: 16 characters. */
function base64url(lanes: Int32Array): string {
  const codes = new Array<number>(16)
  for (let g = 0; g < 4; g++) {
    const n = (laneByte(lanes, g * 3) << 16) | (laneByte(lanes, g * 3 + 1) << 8) | laneByte(lanes, g * 3 + 2)
    codes[g * 4] = BASE64URL.charCodeAt((n >>> 18) & 63)
    codes[g * 4 + 1] = BASE64URL.charCodeAt((n >>> 12) & 63)
    codes[g * 4 + 2] = BASE64URL.charCodeAt((n >>> 6) & 63)
    codes[g * 4 + 3] = BASE64URL.charCodeAt(n & 63)
  }
  return String.fromCharCode(...codes)
}

/** Ids for the rows of one statement in file order: a row's content id, with "#1", "#2"… for the second and later of identical rows. */
export class RowIds {
  private readonly seen = new IdSet()
  private readonly repeats = new Map<string, number>()

  /** The id of the next row with this content. */
  next(
    currency: string,
    day: string,
    minor: number,
    reference: string | null,
    description: string | null,
    counterparty: string | null
  ): string {
    const base = rowContentId(currency, day, minor, reference, description, counterparty)
    if (!this.seen.add(LANES[0] as number, LANES[1] as number, LANES[2] as number)) return base
    const occurrence = (this.repeats.get(base) ?? 0) + 1
    this.repeats.set(base, occurrence)
    return `${base}#${occurrence}`
  }
}
