// Excel 2007+ (.xlsx) sheets read straight from their XML parts: the fast way for the workbooks banks export (SheetJS builds a cell object and formats text for each of a million cells; this keeps only the value and whether its style is a date). Anything it does not expect is left to SheetJS.
import { strFromU8 } from 'fflate'
import { DEFAULT_ZIP_LIMITS, unzipBounded, type ZipLimits } from '../../../files/zip'
import { sheetJs } from './sheetjs'
import { LeftToSheetJs, type CellSheet, type SheetCell } from './sheet-cells'

const TEXT = /<(?:[A-Za-z_][\w.-]*:)?t(?:\s[^>]*)?>([^<]*)<\/(?:[A-Za-z_][\w.-]*:)?t>|<(?:[A-Za-z_][\w.-]*:)?t\s*\/>/g
const PHONETIC = /<(?:[A-Za-z_][\w.-]*:)?rPh\b[\s\S]*?<\/(?:[A-Za-z_][\w.-]*:)?rPh>/g
const SHARED = /<(?:[A-Za-z_][\w.-]*:)?si(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/(?:[A-Za-z_][\w.-]*:)?si>)/g
const CELL_OR_ROW = /<([A-Za-z_][\w.-]*:)?(row|c)(?=[\s/>])([^>]*)>/g
const FORMULA = /<(?:[A-Za-z_][\w.-]*:)?f(?:\s[^>]*)?(?:\/>|>([^<]*)<\/(?:[A-Za-z_][\w.-]*:)?f>)/
const VALUE = /<(?:[A-Za-z_][\w.-]*:)?v(?:\s[^>]*)?>([^<]*)<\/(?:[A-Za-z_][\w.-]*:)?v>/
const ENTITY = /&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);|_x([0-9a-fA-F]{4})_/g
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** XML text with its entities (and OOXML's _xHHHH_ escapes of control characters) resolved. */
function unescapeXml(text: string): string {
  if (!text.includes('&') && !text.includes('_x')) return text
  return text.replace(ENTITY, (whole, entity: string | undefined, hex: string | undefined) => {
    if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16))
    const e = entity as string
    if (e[0] !== '#') return NAMED[e] ?? whole
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

/** Each attribute name's pattern, made once (a sheet asks for the same three of every cell). */
const ATTRIBUTES = new Map<string, RegExp>()

/** An attribute's value in a tag's attribute text, or null. */
function attribute(attributes: string, name: string): string | null {
  let pattern = ATTRIBUTES.get(name)
  if (pattern === undefined) ATTRIBUTES.set(name, (pattern = new RegExp(`(?:^|\\s)(?:[A-Za-z_][\\w.-]*:)?${name}\\s*=`)))
  const at = attributes.search(pattern)
  if (at < 0) return null
  const quote = attributes.slice(at).match(/=\s*(["'])/)
  if (!quote || quote.index === undefined) return null
  const start = at + quote.index + quote[0].length
  const end = attributes.indexOf(quote[1] as string, start)
  return end < 0 ? null : unescapeXml(attributes.slice(start, end))
}

/**
 * A cell's r, s and t attributes in one pass over its attribute text (no pattern per attribute: a
 * sheet has a million cells). Values are references, style numbers and type codes: no entities.
 */
function cellAttributes(text: string, into: { r: string | null; s: string | null; t: string | null }): void {
  into.r = into.s = into.t = null
  let i = 0
  const n = text.length
  while (i < n) {
    const eq = text.indexOf('=', i)
    if (eq < 0) return
    let q = eq + 1
    while (q < n && (text[q] === ' ' || text[q] === '\t' || text[q] === '\n' || text[q] === '\r')) q++
    const quote = text[q]
    if (quote !== '"' && quote !== "'") return
    const end = text.indexOf(quote, q + 1)
    if (end < 0) return
    let nameEnd = eq
    while (nameEnd > i && /\s/.test(text[nameEnd - 1] as string)) nameEnd--
    let nameStart = nameEnd
    while (nameStart > i && !/[\s:]/.test(text[nameStart - 1] as string)) nameStart--
    if (nameEnd - nameStart === 1) {
      const name = text[nameStart]
      if (name === 'r' || name === 's' || name === 't') into[name] = text.slice(q + 1, end)
    }
    i = end + 1
  }
}

/** The text of a shared or inline string: its runs joined, phonetic guides left out. */
function stringText(xml: string): string {
  let text = ''
  for (const m of xml.replace(PHONETIC, '').matchAll(TEXT)) text += m[1] ?? ''
  return unescapeXml(text)
}

/** "AB" → 27 (0-based column 27). */
function columnIndex(letters: string): number {
  let n = 0
  for (let i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 64)
  return n - 1
}

/** The part's text, or a LeftToSheetJs naming what is missing. */
function part(files: Record<string, Uint8Array>, path: string): string {
  const bytes = files[path]
  if (!bytes) throw new LeftToSheetJs(`no ${path}`)
  return strFromU8(bytes)
}

/** Where a relationship's target is, from the folder of the part that names it. */
function resolve(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const parts = `${folder}${target}`.split('/')
  const out: string[] = []
  for (const p of parts) {
    if (p === '..') out.pop()
    else if (p !== '.' && p !== '') out.push(p)
  }
  return out.join('/')
}

/** Relationship id → target path, of a .rels part. */
function relationships(xml: string, folder: string): Map<string, { type: string; path: string }> {
  const out = new Map<string, { type: string; path: string }>()
  for (const m of xml.matchAll(/<(?:[A-Za-z_][\w.-]*:)?Relationship\b([^>]*)>/g)) {
    const id = attribute(m[1] as string, 'Id')
    const target = attribute(m[1] as string, 'Target')
    if (id && target && attribute(m[1] as string, 'TargetMode') !== 'External')
      out.set(id, { type: attribute(m[1] as string, 'Type') ?? '', path: resolve(folder, target) })
  }
  return out
}

/** Which cell styles (by index) show a date, from styles.xml's number formats. */
function dateStyles(xml: string | null): boolean[] {
  if (xml === null) return []
  const table = sheetJs().SSF.get_table() as Record<number, string>
  const custom = new Map<number, string>()
  for (const m of xml.matchAll(/<(?:[A-Za-z_][\w.-]*:)?numFmt\b([^>]*)>/g)) {
    const id = attribute(m[1] as string, 'numFmtId')
    const code = attribute(m[1] as string, 'formatCode')
    if (id !== null && code !== null) custom.set(Number(id), code)
  }
  const xfs = /<(?:[A-Za-z_][\w.-]*:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:[A-Za-z_][\w.-]*:)?cellXfs>/.exec(xml)?.[1] ?? ''
  const styles: boolean[] = []
  for (const m of xfs.matchAll(/<(?:[A-Za-z_][\w.-]*:)?xf\b([^>]*)>/g)) {
    const id = Number(attribute(m[1] as string, 'numFmtId') ?? 0)
    const format = custom.get(id) ?? table[id]
    styles.push(typeof format === 'string' && sheetJs().SSF.is_date(format))
  }
  return styles
}

/**
 * Every worksheet of an .xlsx, in workbook order. Throws LeftToSheetJs when the file is not a plain
 * OOXML workbook of worksheets this reader knows (binary .xlsb parts, strict OOXML, a missing part):
 * the caller then reads it with SheetJS, which also says what is wrong with a damaged file.
 */
export function readOoxmlSheets(bytes: Uint8Array, name: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): CellSheet[] {
  // Every part inflated within the limits first (SheetJS, if it reads the file after, meets no part larger than they allow); damage is said as damage.
  const parts = unzipBounded(bytes, name, (part) => part.endsWith('.xml') || part.endsWith('.rels'), limits)
  const files: Record<string, Uint8Array> = Object.fromEntries(parts)
  try {
    return readSheets(files)
  } catch (error) {
    throw error instanceof LeftToSheetJs ? error : new LeftToSheetJs((error as Error).message)
  }
}

function readSheets(files: Record<string, Uint8Array>): CellSheet[] {
  const root = relationships(part(files, '_rels/.rels'), '')
  const workbookPath = [...root.values()].find((r) => r.type.endsWith('/officeDocument'))?.path
  if (!workbookPath || !workbookPath.endsWith('.xml')) throw new LeftToSheetJs('no XML workbook part')
  const workbook = part(files, workbookPath)
  if (workbook.includes('purl.oclc.org/ooxml')) throw new LeftToSheetJs('strict OOXML')
  const folder = workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1)
  const rels = relationships(part(files, `${folder}_rels/${workbookPath.slice(folder.length)}.rels`), folder)
  const pr = /<(?:[A-Za-z_][\w.-]*:)?workbookPr\b([^>]*)>/.exec(workbook)?.[1] ?? ''
  const date1904 = /^(1|true)$/.test(attribute(pr, 'date1904') ?? '')
  const of = (kind: string): string | null => {
    const r = [...rels.values()].find((x) => x.type.endsWith(`/${kind}`))
    return r ? part(files, r.path) : null
  }
  const strings: string[] = []
  const shared = of('sharedStrings')
  if (shared !== null) for (const m of shared.matchAll(SHARED)) strings.push(m[1] === undefined ? '' : stringText(m[1]))
  const styles = dateStyles(of('styles'))
  const sheets: CellSheet[] = []
  for (const m of workbook.matchAll(/<(?:[A-Za-z_][\w.-]*:)?sheet\b([^>]*)>/g)) {
    const name = attribute(m[1] as string, 'name') ?? ''
    const id = attribute(m[1] as string, 'id')
    const rel = id === null ? undefined : rels.get(id)
    if (!rel) throw new LeftToSheetJs(`sheet ${name} has no part`)
    // Chart sheets and dialog sheets hold no cells.
    if (!rel.type.endsWith('/worksheet')) continue
    sheets.push({ name, rows: sheetRows(part(files, rel.path), strings, styles), date1904 })
  }
  if (sheets.length === 0) throw new LeftToSheetJs('no worksheet')
  return sheets
}

/** A worksheet's cells by row and column. */
function sheetRows(xml: string, strings: readonly string[], styles: readonly boolean[]): SheetCell[][] {
  const rows: SheetCell[][] = []
  const start = xml.search(/<(?:[A-Za-z_][\w.-]*:)?sheetData[\s>]/)
  if (start < 0) return rows
  let row = -1
  let column = -1
  CELL_OR_ROW.lastIndex = start
  const cell = { r: null as string | null, s: null as string | null, t: null as string | null }
  for (let m = CELL_OR_ROW.exec(xml); m !== null; m = CELL_OR_ROW.exec(xml)) {
    const attributes = m[3] as string
    if (m[2] === 'row') {
      const r = attribute(attributes, 'r')
      row = r === null ? row + 1 : Number(r) - 1
      column = -1
      continue
    }
    cellAttributes(attributes, cell)
    const ref = cell.r
    const at = ref === null ? null : /^\$?([A-Z]{1,3})\$?(\d+)$/.exec(ref)
    if (at) {
      column = columnIndex(at[1] as string)
      row = Number(at[2]) - 1
    } else column++
    if (row < 0 || row > 1_048_575 || column > 16_383) throw new LeftToSheetJs(`cell ${ref ?? '?'} is outside a sheet`)
    if (attributes.endsWith('/')) continue
    // The cell's content runs to its end tag (with the prefix its start tag has, if any).
    const close = xml.indexOf(`</${m[1] ?? ''}c>`, CELL_OR_ROW.lastIndex)
    if (close < 0) throw new LeftToSheetJs('a cell is not closed')
    const content = xml.slice(CELL_OR_ROW.lastIndex, close)
    CELL_OR_ROW.lastIndex = close
    const value = readCell(content, cell.t ?? 'n', cell.s, strings, styles)
    if (value === null) continue
    let cells = rows[row]
    if (!cells) cells = rows[row] = []
    cells[column] = value
  }
  return rows
}

function readCell(content: string, type: string, style: string | null, strings: readonly string[], styles: readonly boolean[]): SheetCell {
  if (type === 'inlineStr') return { t: 's', v: stringText(content) }
  const raw = VALUE.exec(content)?.[1]
  if (raw === undefined) {
    // A formula Excel never worked out (a file written by a program, not saved in Excel): shown as what it is, never an empty cell.
    const formula = FORMULA.exec(content)
    return formula ? { t: 's', v: `=${unescapeXml(formula[1] ?? '')} (a formula with no value: open the file in Excel and save it)` } : null
  }
  switch (type) {
    case 'n': {
      const v = Number(raw)
      if (raw.trim() === '' || !Number.isFinite(v)) throw new LeftToSheetJs(`"${raw}" is not a number`)
      return { t: 'n', v, date: style !== null && styles[Number(style)] === true }
    }
    case 's': {
      const text = strings[Number(raw)]
      // A string the workbook lists nowhere: the cell says so (the line is then not read where it matters), never blank.
      return { t: 's', v: text ?? `(text ${raw} is missing from the workbook's shared strings)` }
    }
    case 'str':
      return { t: 's', v: unescapeXml(raw) }
    case 'b':
      return { t: 'b', v: raw.trim() === '1' || raw.trim() === 'true' }
    case 'd':
      return { t: 'd', v: unescapeXml(raw).trim() }
    case 'e':
      return { t: 's', v: unescapeXml(raw).trim() || '#ERROR' }
    default:
      throw new LeftToSheetJs(`cell type ${type}`)
  }
}
