// Old Excel (.xls, BIFF8) sheets read straight from their records: the fast way for the binary workbooks Nigerian and Ghanaian banks export (SheetJS builds a buffer and a cell object per record). The compound file is opened by SheetJS's CFB; a workbook that is not BIFF8 (BIFF5 or older) or is encrypted is left to SheetJS, and a damaged BIFF8 one is refused here with what is wrong.
import { sheetJs } from './sheetjs'
import { DamagedWorkbook, errorText, LeftToSheetJs, type CellSheet, type SheetCell } from './sheet-cells'

const BOF = 0x0809
const EOF = 0x000a
const BOUNDSHEET = 0x0085
const DATEMODE = 0x0022
const FORMAT = 0x041e
const XF = 0x00e0
const SST = 0x00fc
const CONTINUE = 0x003c
const LABELSST = 0x00fd
const LABEL = 0x0204
const RSTRING = 0x00d6
const NUMBER = 0x0203
const RK = 0x027e
const MULRK = 0x00bd
const FORMULA = 0x0006
const STRING = 0x0207
const BOOLERR = 0x0205
const FILEPASS = 0x002f

/** The fewest bytes each kind of cell record holds ([MS-XLS] 2.4): one shorter is damaged, never read into the next record. */
const CELL_SIZE: Readonly<Record<number, number>> = {
  [LABELSST]: 10,
  [LABEL]: 9,
  [RSTRING]: 9,
  [NUMBER]: 14,
  [RK]: 10,
  [MULRK]: 12,
  [FORMULA]: 20,
  [BOOLERR]: 8
}
/** An .xls sheet's last column (IV), 0-based. */
const LAST_COLUMN = 255

/** The Workbook stream of a compound file, or LeftToSheetJs. */
function workbookStream(bytes: Uint8Array): Buffer {
  let container: unknown
  try {
    container = (sheetJs().CFB as { read: (data: Uint8Array, options: { type: string }) => unknown }).read(bytes, { type: 'buffer' })
  } catch (error) {
    throw new LeftToSheetJs(`not a compound file: ${(error as Error).message}`)
  }
  const find = (sheetJs().CFB as { find: (cfb: unknown, path: string) => { content?: Uint8Array | number[] } | null }).find
  const entry = find(container, 'Workbook') ?? find(container, 'Book')
  if (!entry?.content) throw new LeftToSheetJs('no Workbook stream')
  const c = entry.content
  // SheetJS gives a Buffer, or a plain array for a stream it assembled itself.
  return Buffer.isBuffer(c) ? c : Buffer.from(c)
}

/** A BIFF8 string's characters (compressed Latin-1 or UTF-16LE) from `at`, with how many bytes they took. */
function chars(data: Buffer, at: number, count: number, wide: boolean): [string, number] {
  const bytes = wide ? count * 2 : count
  if (at + bytes > data.length) throw new DamagedWorkbook('a string runs past its record')
  return [data.toString(wide ? 'utf16le' : 'latin1', at, at + bytes), bytes]
}

/** An XLUnicodeString (16-bit length, flags, characters, with rich-text runs and phonetic data skipped) at `at`: its text and the offset after it. */
function unicodeString(data: Buffer, at: number, shortLength = false): [string, number] {
  const count = shortLength ? (data[at] as number) : data.readUInt16LE(at)
  let p = at + (shortLength ? 1 : 2)
  const flags = data[p++] as number
  const runs = flags & 0x08 ? data.readUInt16LE(p) : 0
  if (flags & 0x08) p += 2
  const ext = flags & 0x04 ? data.readInt32LE(p) : 0
  if (flags & 0x04) p += 4
  const [text, used] = chars(data, p, count, (flags & 0x01) === 1)
  return [text, p + used + runs * 4 + ext]
}

/**
 * The shared strings of an SST and its CONTINUE records. A string's characters may run over into the
 * next record, which then starts with its own flags byte (the rest may be compressed or not); its
 * rich-text runs and phonetic data run over with no such byte.
 */
function sharedStrings(parts: Buffer[]): string[] {
  const strings: string[] = []
  let part = 0
  let data = parts[0] as Buffer
  const unique = data.readUInt32LE(4)
  let p = 8
  /** Moves to the next part when this one is used up; false when there is none. */
  const next = (): boolean => {
    if (p < data.length) return true
    if (part + 1 >= parts.length) return false
    data = parts[++part] as Buffer
    p = 0
    return true
  }
  /** Skips `n` bytes that may run over parts (runs, phonetic data). */
  const skip = (n: number): void => {
    while (n > 0) {
      if (!next()) throw new DamagedWorkbook('the shared strings end early')
      const step = Math.min(n, data.length - p)
      p += step
      n -= step
    }
  }
  for (let k = 0; k < unique; k++) {
    if (!next()) break
    if (p + 3 > data.length) throw new DamagedWorkbook('a shared string header runs over its record')
    let count = data.readUInt16LE(p)
    let flags = data[p + 2] as number
    p += 3
    const runs = flags & 0x08 ? data.readUInt16LE(p) : 0
    if (flags & 0x08) p += 2
    const ext = flags & 0x04 ? data.readInt32LE(p) : 0
    if (flags & 0x04) p += 4
    let text = ''
    for (;;) {
      const wide = (flags & 0x01) === 1
      const room = Math.floor((data.length - p) / (wide ? 2 : 1))
      const take = Math.min(count, room)
      const [piece, used] = chars(data, p, take, wide)
      text += piece
      p += used
      count -= take
      if (count === 0) break
      // The rest of the characters in the next record, after a flags byte of their own.
      if (part + 1 >= parts.length) throw new DamagedWorkbook('a shared string ends early')
      data = parts[++part] as Buffer
      flags = data[0] as number
      p = 1
    }
    skip(runs * 4 + ext)
    strings.push(text)
  }
  return strings
}

/** An RK number: a 30-bit integer or the top 30 bits of a double, either perhaps in hundredths. */
function rkValue(rk: number): number {
  let value: number
  if (rk & 0x02) value = rk >> 2
  else {
    RK_VIEW.setUint32(0, 0, true)
    RK_VIEW.setUint32(4, (rk & 0xfffffffc) >>> 0, true)
    value = RK_VIEW.getFloat64(0, true)
  }
  return rk & 0x01 ? value / 100 : value
}
const RK_VIEW = new DataView(new ArrayBuffer(8))

/**
 * Every worksheet of a BIFF8 .xls, in workbook order (none when it has only chart sheets). Throws
 * LeftToSheetJs when the file is anything else this reader does not know (BIFF5 and older, an encrypted
 * workbook), and DamagedWorkbook when a BIFF8 one is damaged (a record past the stream's end or shorter
 * than its kind, a sheet with no end, a shared string cut short).
 */
export function readBiff8Sheets(bytes: Uint8Array, isDateFormat: (format: string) => boolean): CellSheet[] {
  try {
    const stream = workbookStream(bytes)
    const globals = readGlobals(stream, isDateFormat)
    const sheets: CellSheet[] = []
    for (const sheet of globals.sheets)
      if (sheet.kind === 0)
        sheets.push({
          name: sheet.name,
          rows: readSheet(stream, sheet.offset, globals.strings, globals.dateStyles),
          date1904: globals.date1904
        })
    return sheets
  } catch (error) {
    // Once the stream is known BIFF8, this reader has the last word: SheetJS loops forever on some damaged records.
    if (error instanceof LeftToSheetJs || error instanceof DamagedWorkbook) throw error
    if (error instanceof RangeError) throw new DamagedWorkbook('a record is shorter than its kind needs')
    throw error
  }
}

interface Globals {
  sheets: { name: string; offset: number; kind: number }[]
  strings: string[]
  /** By cell style (XF) index: whether its number format shows a date. */
  dateStyles: boolean[]
  date1904: boolean
}

/** The record whose header is at `offset`: its type, its size and where its data starts; DamagedWorkbook when it runs past the stream. */
function recordAt(data: Buffer, offset: number): { type: number; size: number; at: number } {
  const size = data.readUInt16LE(offset + 2)
  if (offset + 4 + size > data.length)
    throw new DamagedWorkbook(
      `a record at byte ${offset} of its Workbook stream runs past the stream's end (byte ${data.length}); the file is cut short or damaged`
    )
  return { type: data.readUInt16LE(offset), size, at: offset + 4 }
}

/** The workbook globals, from the stream's first BOF to its EOF: the sheets, shared strings, number formats and date system. */
function readGlobals(data: Buffer, isDateFormat: (format: string) => boolean): Globals {
  const table = sheetJs().SSF.get_table() as Record<number, string>
  const formats = new Map<number, string>()
  const xfFormats: number[] = []
  const sheets: Globals['sheets'] = []
  let strings: string[] = []
  let date1904 = false
  let next = 0
  while (next + 4 <= data.length) {
    const { type, size, at } = recordAt(data, next)
    next = at + size
    if (at === 4) {
      if (type !== BOF || size < 4 || data.readUInt16LE(at) !== 0x0600 || data.readUInt16LE(at + 2) !== 0x0005)
        throw new LeftToSheetJs('not a BIFF8 workbook')
      continue
    }
    const record = data.subarray(at, at + size)
    switch (type) {
      case FILEPASS:
        throw new LeftToSheetJs('encrypted')
      case BOUNDSHEET:
        sheets.push({ name: unicodeString(record, 6, true)[0], offset: record.readUInt32LE(0), kind: record[5] as number })
        break
      case DATEMODE:
        date1904 = record.readUInt16LE(0) === 1
        break
      case FORMAT:
        formats.set(record.readUInt16LE(0), unicodeString(record, 2)[0])
        break
      case XF:
        xfFormats.push(record.readUInt16LE(2))
        break
      case SST: {
        const parts = [record]
        while (next + 4 <= data.length && data.readUInt16LE(next) === CONTINUE) {
          const length = data.readUInt16LE(next + 2)
          parts.push(data.subarray(next + 4, next + 4 + length))
          next += 4 + length
        }
        strings = sharedStrings(parts)
        break
      }
      case EOF: {
        const dateStyles = xfFormats.map((id) => {
          const format = formats.get(id) ?? table[id]
          return typeof format === 'string' && isDateFormat(format)
        })
        return { sheets, strings, dateStyles, date1904 }
      }
    }
  }
  throw new DamagedWorkbook('the workbook part before the sheets has no end record; the file is cut short or damaged')
}

/** One worksheet's cells, from its BOF at `offset` to its EOF. */
function readSheet(data: Buffer, offset: number, strings: readonly string[], dateStyles: readonly boolean[]): SheetCell[][] {
  const rows: SheetCell[][] = []
  const put = (row: number, column: number, cell: SheetCell): void => {
    let cells = rows[row]
    if (!cells) cells = rows[row] = []
    cells[column] = cell
  }
  const number = (xf: number, v: number): SheetCell => ({ t: 'n', v, date: dateStyles[xf] === true })
  if (offset + 8 > data.length || data.readUInt16LE(offset) !== BOF || data.readUInt16LE(offset + 4) !== 0x0600)
    throw new DamagedWorkbook(`a sheet does not start where the workbook says (byte ${offset})`)
  let at = offset + 4 + data.readUInt16LE(offset + 2)
  /** A formula whose string result is in the STRING record after it. */
  let pending: [number, number] | null = null
  while (at + 4 <= data.length) {
    const { type, size, at: p } = recordAt(data, at)
    at = p + size
    if (type === EOF) return rows
    if (type === BOF) {
      // A chart or other object embedded in the sheet: its own records, up to its own EOF, hold no cells.
      let depth = 1
      while (depth > 0) {
        if (at + 4 > data.length)
          throw new DamagedWorkbook('an object embedded in a sheet has no end record; the file is cut short or damaged')
        const inner = recordAt(data, at)
        at = inner.at + inner.size
        if (inner.type === BOF) depth++
        else if (inner.type === EOF) depth--
      }
      continue
    }
    if (size < 6 && type !== STRING && type !== CONTINUE) continue
    const row = data.readUInt16LE(p)
    const column = data.readUInt16LE(p + 2)
    const xf = data.readUInt16LE(p + 4)
    const needs = CELL_SIZE[type]
    if (needs !== undefined && (size < needs || (type === MULRK && (size - 6) % 6 !== 0)))
      throw new DamagedWorkbook(`a cell record at byte ${p - 4} of its Workbook stream is ${size} bytes, shorter than its kind needs`)
    if (needs !== undefined && column > LAST_COLUMN)
      throw new DamagedWorkbook(
        `a cell record at byte ${p - 4} of its Workbook stream is in column ${column + 1}, past the last an .xls has (${LAST_COLUMN + 1})`
      )
    switch (type) {
      case LABELSST: {
        const text = strings[data.readUInt32LE(p + 6)]
        if (text === undefined) throw new DamagedWorkbook('a shared string is missing')
        put(row, column, { t: 's', v: text })
        break
      }
      case LABEL:
      case RSTRING:
        put(row, column, { t: 's', v: unicodeString(data.subarray(p, p + size), 6)[0] })
        break
      case NUMBER:
        put(row, column, number(xf, data.readDoubleLE(p + 6)))
        break
      case RK:
        put(row, column, number(data.readUInt16LE(p + 4), rkValue(data.readInt32LE(p + 6))))
        break
      case MULRK: {
        const count = (size - 6) / 6
        for (let k = 0; k < count; k++) {
          const q = p + 4 + k * 6
          put(row, column + k, number(data.readUInt16LE(q), rkValue(data.readInt32LE(q + 2))))
        }
        break
      }
      case FORMULA: {
        // The cached result: a number, or (its last two bytes 0xFFFF) a string to follow, a boolean, an error or nothing.
        if (data.readUInt16LE(p + 12) !== 0xffff) put(row, column, number(xf, data.readDoubleLE(p + 6)))
        else if (data[p + 6] === 0) pending = [row, column]
        else if (data[p + 6] === 1) put(row, column, { t: 'b', v: data[p + 8] === 1 })
        else if (data[p + 6] === 2) put(row, column, { t: 's', v: errorText(data[p + 8] as number) })
        break
      }
      case STRING:
        if (pending) put(pending[0], pending[1], { t: 's', v: unicodeString(data.subarray(p, p + size), 0)[0] })
        pending = null
        break
      case BOOLERR:
        put(row, column, data[p + 7] === 0 ? { t: 'b', v: data[p + 6] === 1 } : { t: 's', v: errorText(data[p + 6] as number) })
        break
    }
  }
  throw new DamagedWorkbook('a sheet has no end record; the file is cut short or damaged')
}
