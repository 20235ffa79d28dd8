// A zip read with limits, for files Ledgerline is handed (workbooks, evidence packs): its entries from the central directory, each inflated by zlib with a ceiling on what it may grow to, names that repeat refused, damage said as damage; never an archive that inflates to gigabytes in memory.
import { crc32, inflateRawSync } from 'node:zlib'
import { AppError } from '../errors'

/** What a zip entry says of itself in the central directory. */
export interface ZipEntry {
  name: string
  /** 0 stored, 8 deflated (no other method is read). */
  method: number
  compressedSize: number
  /** As the archive declares it: checked against what inflating gives. */
  size: number
  crc32: number
  /** Where its local header starts. */
  offset: number
}

/** How much one entry, and the whole archive, may inflate to. */
export interface ZipLimits {
  perEntry: number
  total: number
}

/** The default ceiling: well above the largest real statement workbook (a million lines is about 100 MB of sheet XML). */
export const DEFAULT_INFLATED_LIMIT = 512 * 1024 * 1024

export const DEFAULT_ZIP_LIMITS: ZipLimits = { perEntry: DEFAULT_INFLATED_LIMIT, total: 2 * DEFAULT_INFLATED_LIMIT }

/** A zip that is damaged, or not one: said in words, with what to do. */
export class ZipError extends AppError {}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

function damaged(what: string, why: string): ZipError {
  return new ZipError('damaged_zip', `${what} is damaged: ${why}. Get the file again from where it came from.`)
}

/** The entries of a zip, from its central directory; throws ZipError when the directory cannot be read or names an entry twice. */
export function zipEntries(bytes: Uint8Array, what: string): ZipEntry[] {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // The end-of-central-directory record is within the last 64 KB + 22 bytes (its comment is at most 65,535 bytes).
  let eocd = -1
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65_535); i--)
    if (b.readUInt32LE(i) === EOCD) {
      eocd = i
      break
    }
  if (eocd < 0) throw damaged(what, 'it has no zip directory at its end (cut short, or not a zip)')
  const count = b.readUInt16LE(eocd + 10)
  const size = b.readUInt32LE(eocd + 12)
  let at = b.readUInt32LE(eocd + 16)
  if (count === 0xffff || size === 0xffffffff || at === 0xffffffff)
    throw damaged(what, 'it is a ZIP64 archive larger than any statement or pack')
  if (at + size > eocd) throw damaged(what, 'its directory points past its end')
  const entries: ZipEntry[] = []
  const names = new Set<string>()
  for (let k = 0; k < count; k++) {
    if (at + 46 > b.length || b.readUInt32LE(at) !== CENTRAL)
      throw damaged(what, `its directory entry ${k + 1} is not where the directory says`)
    const nameLength = b.readUInt16LE(at + 28)
    const extra = b.readUInt16LE(at + 30)
    const comment = b.readUInt16LE(at + 32)
    const name = b.subarray(at + 46, at + 46 + nameLength).toString('utf8')
    if (names.has(name))
      throw new ZipError('duplicate_entry', `${what} holds two entries named "${name}": which one is meant cannot be told.`)
    names.add(name)
    entries.push({
      name,
      method: b.readUInt16LE(at + 10),
      crc32: b.readUInt32LE(at + 16),
      compressedSize: b.readUInt32LE(at + 20),
      size: b.readUInt32LE(at + 24),
      offset: b.readUInt32LE(at + 42)
    })
    at += 46 + nameLength + extra + comment
  }
  return entries
}

/**
 * One entry's bytes: inflated by zlib with a ceiling (the entry's declared size is checked before,
 * what inflating gives after: a size that lies is damage), checked against its CRC-32.
 */
export function zipEntryBytes(bytes: Uint8Array, entry: ZipEntry, what: string, limit: number): Buffer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (entry.size > limit)
    throw new ZipError(
      'file_too_large',
      `${what}: its part ${entry.name} would inflate to ${mb(entry.size)}, more than the ${mb(limit)} Ledgerline reads of one part.`
    )
  if (entry.offset + 30 > b.length || b.readUInt32LE(entry.offset) !== LOCAL)
    throw damaged(what, `its part ${entry.name} is not where the directory says`)
  const start = entry.offset + 30 + b.readUInt16LE(entry.offset + 26) + b.readUInt16LE(entry.offset + 28)
  const data = b.subarray(start, start + entry.compressedSize)
  if (data.length < entry.compressedSize) throw damaged(what, `its part ${entry.name} is cut short`)
  let out: Buffer
  if (entry.method === 0) out = Buffer.from(data)
  else if (entry.method === 8) {
    try {
      out = inflateRawSync(data, { maxOutputLength: Math.max(1, Math.min(limit, entry.size + 1)) })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw damaged(what, `its part ${entry.name} inflates to more than the ${mb(entry.size)} its directory declares`)
      throw damaged(what, `its part ${entry.name} does not inflate (${(error as Error).message})`)
    }
  } else
    throw new ZipError(
      'unsupported_zip',
      `${what}: its part ${entry.name} is compressed with method ${entry.method}, which Ledgerline does not read.`
    )
  if (out.length !== entry.size)
    throw damaged(what, `its part ${entry.name} inflates to ${out.length} bytes, not the ${entry.size} its directory declares`)
  if (crc32(out) !== entry.crc32) throw damaged(what, `its part ${entry.name} does not match its checksum (CRC-32)`)
  return out
}

/** Every entry of a zip the filter keeps, each and all within the limits (the others are inflated too, and measured, but not kept: a part read later by another reader is bounded as well). */
export function unzipBounded(
  bytes: Uint8Array,
  what: string,
  keep: (name: string) => boolean,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS
): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  let total = 0
  for (const entry of zipEntries(bytes, what)) {
    if (entry.name.endsWith('/')) continue
    // One part past its limit is named first; then what they all inflate to (each part's size as declared, checked when inflated).
    if (entry.size <= limits.perEntry) total += entry.size
    if (total > limits.total)
      throw new ZipError(
        'file_too_large',
        `${what} would inflate to more than ${mb(limits.total)} in all, more than Ledgerline reads of one file.`
      )
    const data = zipEntryBytes(bytes, entry, what, limits.perEntry)
    if (keep(entry.name)) out.set(entry.name, data)
  }
  return out
}

function mb(n: number): string {
  return `${Math.round(n / (1024 * 1024)).toLocaleString('en-US')} MB`
}
