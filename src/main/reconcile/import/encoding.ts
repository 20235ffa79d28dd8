// Statement bytes → text: the byte order mark, then strict UTF-8, then UTF-16 by its zero bytes, then chardet's guess (Latin ones read as Windows-1252), decoded by iconv-lite.
import chardet from 'chardet'
import iconv from 'iconv-lite'

/** Encodings chardet may name that are all read as Windows-1252 (its superset for Western text, and what Excel writes). */
const LATIN = new Set([
  'iso-8859-1',
  'iso-8859-2',
  'iso-8859-9',
  'iso-8859-15',
  'windows-1250',
  'windows-1252',
  'windows-1254',
  'windows-1257',
  'ascii'
])

export interface Decoded {
  text: string
  /** The encoding used, as iconv-lite names it. */
  encoding: string
  /** How it was chosen: 'bom', 'valid utf-8', 'zero bytes', 'detected', 'given'. */
  how: string
}

export class EncodingError extends Error {
  readonly code = 'unknown_encoding'
}

export function decodeStatement(bytes: Uint8Array, given?: string | null): Decoded {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (given) {
    if (!iconv.encodingExists(given))
      throw new EncodingError(`The encoding "${given}" is not one Ledgerline can read (try utf-8, utf-16le, windows-1252).`)
    return { text: stripBom(iconv.decode(buffer, given)), encoding: given.toLowerCase(), how: 'given' }
  }
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf)
    return { text: iconv.decode(buffer.subarray(3), 'utf-8'), encoding: 'utf-8', how: 'bom' }
  if (buffer[0] === 0xff && buffer[1] === 0xfe)
    return { text: iconv.decode(buffer.subarray(2), 'utf-16le'), encoding: 'utf-16le', how: 'bom' }
  if (buffer[0] === 0xfe && buffer[1] === 0xff)
    return { text: iconv.decode(buffer.subarray(2), 'utf-16be'), encoding: 'utf-16be', how: 'bom' }
  const utf16 = utf16ByZeros(buffer)
  if (utf16) return { text: iconv.decode(buffer, utf16), encoding: utf16, how: 'zero bytes' }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buffer), encoding: 'utf-8', how: 'valid utf-8' }
  } catch {
    // Not UTF-8: a legacy single-byte or East Asian encoding.
  }
  const guess = (chardet.detect(buffer.subarray(0, 1 << 20)) ?? 'windows-1252').toLowerCase()
  const encoding = LATIN.has(guess) || !iconv.encodingExists(guess) ? 'windows-1252' : guess
  return { text: decodeAs(buffer, encoding), encoding, how: 'detected' }
}

/** Text a format leaves to the desktop's character set: UTF-8 when the bytes are valid UTF-8 (its byte order mark dropped), else Windows-1252. */
export function decodeUtf8Else1252(bytes: Uint8Array): Decoded {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  try {
    return { text: stripBom(new TextDecoder('utf-8', { fatal: true }).decode(buffer)), encoding: 'utf-8', how: 'valid utf-8' }
  } catch {
    return { text: decodeAs(buffer, 'windows-1252'), encoding: 'windows-1252', how: 'not utf-8' }
  }
}

/**
 * Bytes as text in an encoding iconv-lite knows, its byte order mark dropped as iconv-lite drops it.
 * UTF-8 is decoded natively (a byte that is not UTF-8 becomes U+FFFD either way); Windows-1252 differs
 * from Latin-1 only in 0x80–0x9F (curly quotes, the euro sign), so a file without those is decoded
 * natively as Latin-1: both far faster on a large file.
 */
export function decodeAs(buffer: Buffer, encoding: string): string {
  if (/^utf-?8$/i.test(encoding)) return stripBom(buffer.toString('utf8'))
  if (encoding === 'windows-1252' && !hasC1Bytes(buffer)) return buffer.toString('latin1')
  return iconv.decode(buffer, encoding)
}

function hasC1Bytes(buffer: Buffer): boolean {
  for (let i = 0; i < buffer.length; i++) {
    const b = buffer[i] as number
    if (b >= 0x80 && b <= 0x9f) return true
  }
  return false
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** UTF-16 without a BOM: ASCII text then has a zero in every other byte. */
export function utf16ByZeros(buffer: Buffer): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(buffer.length, 4096) & ~1
  if (n < 4) return null
  let even = 0
  let odd = 0
  for (let i = 0; i < n; i += 2) {
    if (buffer[i] === 0) even++
    if (buffer[i + 1] === 0) odd++
  }
  const pairs = n / 2
  if (odd > pairs * 0.6 && even < pairs * 0.1) return 'utf-16le'
  if (even > pairs * 0.6 && odd < pairs * 0.1) return 'utf-16be'
  return null
}

/**
 * Bytes that should be UTF-8, as text: every valid sequence as UTF-8, and each byte that is not
 * UTF-8 as the Windows-1252 character it most likely is (a stray "é" from a legacy system), never
 * a silent U+FFFD. Says how many bytes were read so and the first one's offset.
 */
export function decodeUtf8Strictly(buffer: Buffer): { text: string; notUtf8: number; firstAt: number | null } {
  try {
    return { text: stripBom(new TextDecoder('utf-8', { fatal: true }).decode(buffer)), notUtf8: 0, firstAt: null }
  } catch {
    // Some bytes are not UTF-8: read sequence by sequence below.
  }
  let text = ''
  let notUtf8 = 0
  let firstAt: number | null = null
  let start = 0
  const strict = new TextDecoder('utf-8', { fatal: true })
  let i = 0
  while (i < buffer.length) {
    const b = buffer[i] as number
    const size = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
    let ok = size > 0 && i + size <= buffer.length
    for (let k = 1; ok && k < size; k++) ok = ((buffer[i + k] as number) & 0xc0) === 0x80
    if (ok && size > 1) {
      try {
        strict.decode(buffer.subarray(i, i + size))
      } catch {
        ok = false
      }
    }
    if (ok) {
      i += size
      continue
    }
    text += buffer.subarray(start, i).toString('utf8') + iconv.decode(buffer.subarray(i, i + 1), 'windows-1252')
    notUtf8++
    firstAt ??= i
    i++
    start = i
  }
  text += buffer.subarray(start).toString('utf8')
  return { text: stripBom(text), notUtf8, firstAt }
}
