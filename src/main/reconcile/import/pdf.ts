// A text PDF statement → a grid, by where pdfjs-dist places each piece of text: the header row found, columns from its positions, wrapped narrations joined to their line, page headers, footers and repeated column headers set aside (each named), every line placed by page and line.
import { pathToFileURL } from 'node:url'
import type { TextItem } from 'pdfjs-dist/types/src/display/api'
import { AppError } from '../../errors'
import { readDateShape } from './dates'
import { fieldOfHeader, guessColumns, headerScore, normaliseHeader } from './mapping'
import type { Grid } from './table'
import type { MappedField } from '../../../shared/reconcile'

/** A piece of text where the page puts it: x from the left edge, y up from the bottom (PDF space), size its font's height. */
export interface PdfPiece {
  text: string
  x: number
  right: number
  y: number
  size: number
}

/** One line of text of a page, top to bottom: its pieces left to right and its place in the file. */
export interface PdfLine {
  page: number
  /** Counted through the whole file, 1 for the first page's top line: how the statement's lines are ordered and named. */
  line: number
  y: number
  pieces: PdfPiece[]
}

export interface PdfText {
  pages: number
  lines: PdfLine[]
  /** The file-wide line each page starts on (page 1 starts on line 1). */
  pageStarts: number[]
}

/** What the PDF reader read: the grid the tabular reader checks, and the lines set aside as page furniture, each with why. */
export interface PdfLayout {
  grid: Grid
  setAside: { line: number; reason: string }[]
  pageStarts: number[]
}

/**
 * A cell's text wrapped onto the next line, joined again: with the column's joiner (a space between words), except after a
 * hyphen that ends a word ("TST-" + "0000001"), where the layout broke the line and no space was ever there.
 */
function joinWrapped(first: string, then: string, joinWith: string): string {
  return /[^\s-]-$/.test(first) ? `${first}${then}` : `${first}${joinWith}${then}`
}

/** Words of a balance or totals line, never a narration's continuation. */
const BALANCE_OR_TOTAL = /\b(?:opening|closing|brought|carried|total|totals|sub-?total|balance (?:b\/?f|c\/?f|as at)|b\/f|c\/f)\b/i

/** The password asked for: the file is protected and none (or a wrong one) was given. */
export const PDF_PASSWORD_REQUIRED = 'pdf_password_required'
export const PDF_PASSWORD_WRONG = 'pdf_password_wrong'

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs')
const PDFJS = 'pdfjs-dist/legacy/build/pdf.mjs'
let pdfjs: Promise<PdfJs> | null = null
/**
 * pdfjs-dist is an ES module: loaded on first use (the legacy build is the one for Node; its worker
 * runs in this process). Where CommonJS resolution is at hand (the app's bundle, the CLI), it is
 * imported by its file URL, which also holds where the importing module has no file URL of its own.
 */
const loadPdfJs = (): Promise<PdfJs> => (pdfjs ??= import(/* @vite-ignore */ pdfJsSpecifier()) as Promise<PdfJs>)
function pdfJsSpecifier(): string {
  try {
    return typeof require === 'function' ? pathToFileURL(require.resolve(PDFJS)).href : PDFJS
  } catch {
    return PDFJS
  }
}

/**
 * Every line of text of a PDF, by page, top to bottom. The password opens a protected file; it is
 * only handed to pdfjs, never kept or said. Throws pdf_password_required / pdf_password_wrong,
 * scanned_pdf (no text layer) or malformed_pdf.
 */
export async function readPdfText(bytes: Uint8Array, name: string, password?: string): Promise<PdfText> {
  const { getDocument, PasswordResponses } = await loadPdfJs()
  // pdfjs takes the buffer over: it gets its own copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    password,
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false
  })
  let document: Awaited<typeof task.promise>
  try {
    document = await task.promise
  } catch (error) {
    await task.destroy().catch(() => undefined)
    const e = error as { name?: string; code?: number; message?: string }
    if (e.name === 'PasswordException') {
      if (e.code === PasswordResponses.INCORRECT_PASSWORD)
        throw new AppError(PDF_PASSWORD_WRONG, `The password for ${name} is not right; check it and try again (it is case-sensitive).`)
      throw new AppError(
        PDF_PASSWORD_REQUIRED,
        `${name} is protected by a password. Enter the statement's password (the bank sends it with the statement) to read it; it is used only to open the file and never kept.`
      )
    }
    throw malformedPdf(name, e.message ?? String(error))
  }
  try {
    const lines: PdfLine[] = []
    const pageStarts: number[] = []
    let pieces = 0
    for (let p = 1; p <= document.numPages; p++) {
      pageStarts.push(lines.length + 1)
      let items: TextItem[]
      try {
        const page = await document.getPage(p)
        items = (await page.getTextContent()).items.filter((i): i is TextItem => 'str' in i)
        page.cleanup()
      } catch (error) {
        throw malformedPdf(name, `page ${p}: ${(error as Error).message}`)
      }
      const onPage = piecesOf(items)
      pieces += onPage.length
      for (const line of linesOf(onPage)) lines.push({ page: p, line: lines.length + 1, y: line.y, pieces: line.pieces })
    }
    if (pieces === 0)
      throw new AppError(
        'scanned_pdf',
        `${name} is a scanned PDF: its ${document.numPages === 1 ? 'page is a picture' : `${document.numPages} pages are pictures`} with no text in them, and Ledgerline does no OCR. Download the statement from your internet banking as a PDF (not a scan or photo), or as Excel, CSV, MT940, CAMT.053 or OFX.`
      )
    return { pages: document.numPages, lines, pageStarts }
  } finally {
    await document.destroy().catch(() => undefined)
  }
}

function malformedPdf(name: string, why: string): AppError {
  return new AppError(
    'malformed_pdf',
    `${name} could not be read as a PDF (${why}); it may be damaged or cut short. Download the statement again.`
  )
}

/** The text pieces of a page, upright only (a diagonal watermark is no line), split where a piece holds several columns ("01/03  Transfer  1,000.00"). */
function piecesOf(items: readonly TextItem[]): PdfPiece[] {
  const out: PdfPiece[] = []
  for (const item of items) {
    const [a, b, c, d, x, y] = item.transform as [number, number, number, number, number, number]
    if (item.str.trim() === '' || Math.abs(b) > Math.abs(a) * 0.05 || Math.abs(c) > Math.abs(d) * 0.05 || a <= 0) continue
    const size = Math.abs(d) || item.height || 1
    const perChar = item.str.length > 0 ? item.width / item.str.length : 0
    // Runs of two or more spaces part columns a generator wrote as one string.
    const parts = item.str.split(/(\s{2,})/)
    let at = 0
    for (const part of parts) {
      if (part.trim() !== '' && !/^\s{2,}$/.test(part)) {
        const lead = part.length - part.trimStart().length
        const text = part.trim()
        const left = x + (at + lead) * perChar
        out.push({ text, x: left, right: parts.length === 1 ? x + item.width : left + text.length * perChar, y, size })
      }
      at += part.length
    }
  }
  return out
}

/** Pieces grouped into lines, top to bottom, each left to right: pieces whose baselines are within half a font height share a line. */
function linesOf(pieces: PdfPiece[]): { y: number; pieces: PdfPiece[] }[] {
  const sorted = [...pieces].sort((p, q) => q.y - p.y || p.x - q.x)
  const lines: { y: number; pieces: PdfPiece[] }[] = []
  for (const piece of sorted) {
    const last = lines[lines.length - 1]
    if (last && Math.abs(last.y - piece.y) <= Math.max(1, piece.size * 0.45)) last.pieces.push(piece)
    else lines.push({ y: piece.y, pieces: [piece] })
  }
  for (const line of lines) line.pieces.sort((p, q) => p.x - q.x)
  return lines
}

/** A line's pieces joined where the gap between them is less than a font height (words of one cell), parted where it is wider (columns). */
function chunksOf(pieces: readonly PdfPiece[]): PdfPiece[] {
  const out: PdfPiece[] = []
  for (const piece of pieces) {
    const last = out[out.length - 1]
    if (last && piece.x - last.right < Math.max(piece.size, last.size) * 0.9) {
      const gap = piece.x - last.right > piece.size * 0.1 ? ' ' : ''
      out[out.length - 1] = { ...last, text: `${last.text}${gap}${piece.text}`, right: Math.max(last.right, piece.right) }
    } else out.push({ ...piece })
  }
  return out
}

interface Column {
  name: string
  x: number
  right: number
  /** Where its pieces may lie: from halfway to the column before to halfway to the column after. */
  from: number
  to: number
  /** Text columns take a wrapped line's words; the others (date, amounts, balance) start or end a line. */
  text: boolean
  joinWith: string
}

/** A header row: two or more statement headers, a date column and an amount, debit or credit column among them. */
function isHeader(chunks: readonly PdfPiece[]): boolean {
  const names = chunks.map((c) => c.text)
  if (headerScore(names) < 2) return false
  const guessed = guessColumns(names, [])
  return guessed.date !== undefined && (guessed.amount !== undefined || guessed.debit !== undefined || guessed.credit !== undefined)
}

/**
 * The header line: the first holding every column a mapping names (a preset the user saved), else
 * the first that names a date and an amount column, else a line of words only right above the first
 * dated line (headers in no list: the user maps them, and may save that as a preset). -1: none.
 */
function findHeaderLine(lines: readonly PdfLine[], named: readonly string[]): number {
  const chunks = lines.map((line) => chunksOf(line.pieces))
  if (named.length > 0) {
    const wanted = named.map(normaliseHeader)
    const found = chunks.findIndex((c) => wanted.every((w) => c.some((p) => normaliseHeader(p.text) === w)))
    if (found >= 0) return found
  }
  const known = chunks.findIndex((c) => isHeader(c))
  if (known >= 0) return known
  const dated = chunks.findIndex((c) => c.length >= 2 && c.some((p) => readDateShape(p.text) !== null))
  if (dated <= 0) return -1
  const above = chunks[dated - 1] as PdfPiece[]
  return above.length >= 2 && above.every((p) => /[A-Za-z\u00C0-\u024F]/.test(p.text) && !/\d/.test(p.text)) ? dated - 1 : -1
}

/** Header words a bank writes on two lines ("Value" over "Date"): a line just above or below of words only, each over a header. */
function headerPart(line: PdfLine | undefined, header: PdfLine, chunks: readonly PdfPiece[]): PdfPiece[] | null {
  if (!line || line.page !== header.page) return null
  const size = chunks[0]?.size ?? 10
  if (Math.abs(line.y - header.y) > size * 1.8) return null
  const parts = chunksOf(line.pieces)
  const over = (p: PdfPiece): boolean => chunks.some((c) => p.x < c.right + size && p.right > c.x - size)
  return parts.every((p) => /^[^\d]+$/.test(p.text) && over(p)) ? parts : null
}

/** The columns a header row names, with the words of a header that wraps joined. */
function columnsOf(
  lines: readonly PdfLine[],
  at: number,
  fieldOf: (header: string) => MappedField | 'ignored' | null
): { columns: Column[]; used: number[] } {
  const header = lines[at] as PdfLine
  const chunks = chunksOf(header.pieces)
  const used = [at]
  const above = headerPart(lines[at - 1], header, chunks)
  const below = headerPart(lines[at + 1], header, chunks)
  const parts: PdfPiece[] = chunks.map((c) => ({ ...c }))
  const fold = (extra: PdfPiece[] | null, before: boolean): void => {
    if (!extra) return
    for (const p of extra) {
      const target = parts.reduce<PdfPiece | null>((best, c) => {
        const overlap = Math.min(c.right, p.right) - Math.max(c.x, p.x)
        const bestOverlap = best ? Math.min(best.right, p.right) - Math.max(best.x, p.x) : -Infinity
        return overlap > bestOverlap ? c : best
      }, null)
      if (target && Math.min(target.right, p.right) - Math.max(target.x, p.x) > -(p.size * 1.5)) {
        target.text = before ? `${p.text} ${target.text}` : `${target.text} ${p.text}`
        target.x = Math.min(target.x, p.x)
        target.right = Math.max(target.right, p.right)
      } else parts.push({ ...p })
    }
  }
  fold(above, true)
  if (above) used.unshift(at - 1)
  fold(below, false)
  if (below) used.push(at + 1)
  parts.sort((p, q) => p.x - q.x)
  const columns = parts.map((p): Column => {
    const field = fieldOf(p.text)
    const text = field === null || field === 'description' || field === 'counterparty' || field === 'reference' || field === 'ignored'
    return { name: p.text, x: p.x, right: p.right, from: 0, to: 0, text, joinWith: field === 'reference' ? '' : ' ' }
  })
  columns.forEach((c, k) => {
    const before = columns[k - 1]
    const after = columns[k + 1]
    c.from = before ? (before.right + c.x) / 2 : -Infinity
    c.to = after ? (c.right + after.x) / 2 : Infinity
  })
  return { columns, used }
}

/**
 * The column a piece lies in most; but a word that ends before a text column's heading starts belongs to the text column before
 * it (a justified narration spreads its words towards the next column; that column's own text starts under its heading).
 */
function columnOf(columns: readonly Column[], piece: PdfPiece): number {
  let best = 0
  let bestOverlap = -Infinity
  for (let k = 0; k < columns.length; k++) {
    const c = columns[k] as Column
    const overlap = Math.min(c.to, piece.right) - Math.max(c.from, piece.x)
    if (overlap > bestOverlap) {
      best = k
      bestOverlap = overlap
    }
  }
  const chosen = columns[best] as Column
  const before = columns[best - 1]
  return before && before.text && chosen.text && piece.right < chosen.x ? best - 1 : best
}

/**
 * Page furniture: a line that says which page it is, or one that repeats on other pages at the same
 * height (digits aside when it holds no date or amount, so "Printed by user 12" matches) and lies
 * outside the page's table: above its first header or dated line, or under its last figures after a
 * gap (a wrapped narration follows its line closely and is never furniture).
 */
function furnitureOf(lines: readonly PdfLine[], pages: number): Set<number> {
  const words = (line: PdfLine): string => line.pieces.map((p) => p.text).join(' ')
  const figures = (line: PdfLine): boolean => line.pieces.some((p) => readDateShape(p.text) !== null || /\d[.,]\d\d\b/.test(p.text))
  const shapeOf = (line: PdfLine): string => `${Math.round(line.y / 3)}|${figures(line) ? words(line) : words(line).replace(/\d+/g, '#')}`
  const seen = new Map<string, Set<number>>()
  for (const line of lines) {
    const shape = shapeOf(line)
    const on = seen.get(shape) ?? new Set<number>()
    on.add(line.page)
    seen.set(shape, on)
  }
  const outside = new Set<number>()
  for (let start = 0; start < lines.length;) {
    let end = start
    while (end < lines.length && (lines[end] as PdfLine).page === (lines[start] as PdfLine).page) end++
    const page = lines.slice(start, end)
    const first = page.findIndex((l) => figures(l) || isHeader(chunksOf(l.pieces)))
    const last = page.findLastIndex((l) => figures(l))
    for (let k = 0; k < (first < 0 ? page.length : first); k++) outside.add((page[k] as PdfLine).line)
    let foot = false
    // Under the page's last figures, or under its header when it has none (a damaged page may hold only a header).
    for (let k = Math.max(last, first) + 1; first >= 0 && k < page.length; k++) {
      const line = page[k] as PdfLine
      const above = page[k - 1] as PdfLine
      if (above.y - line.y > (line.pieces[0]?.size ?? 10) * 2.2) foot = true
      if (foot) outside.add(line.line)
    }
    start = end
  }
  const out = new Set<number>()
  for (const line of lines) {
    const text = words(line)
    if (
      /^\s*(?:page\s+\d+(?:\s*(?:of|\/)\s*\d+)?|\d+\s*(?:of|\/)\s*\d+|-\s*\d+\s*-)\s*$/i.test(text) ||
      /\bpage\s+\d+\s+of\s+\d+\b/i.test(text)
    )
      out.add(line.line)
    else if (pages > 1 && outside.has(line.line) && (seen.get(shapeOf(line))?.size ?? 0) >= 2) out.add(line.line)
  }
  return out
}

/**
 * The statement's grid: the first page's lines above the header row (the bank's header block:
 * account, currency, opening balance), the header, then one row per transaction. A line with a
 * date in the date column, or an amount, starts a row; a line of words only in the text columns
 * continues the row above it (its narration wrapped), also across a page break, or the row below
 * it when it lies closer to that one. Repeated headers and page furniture are set aside, each named.
 * Throws pdf_no_table when no header row is found.
 */
export function layoutPdfStatement(text: PdfText, name: string, mapped: Partial<Record<MappedField, string>> = {}): PdfLayout {
  const { lines } = text
  // What each header holds: as the mapping (a preset) says, else as its words say.
  const byName = new Map((Object.entries(mapped) as [MappedField, string][]).map(([field, column]) => [normaliseHeader(column), field]))
  const fieldOf = (header: string): MappedField | 'ignored' | null => byName.get(normaliseHeader(header)) ?? fieldOfHeader(header)
  const at = findHeaderLine(lines, [...byName.keys()])
  if (at < 0)
    throw new AppError(
      'pdf_no_table',
      `${name} has text but no table of transactions Ledgerline recognises: no line has a date column and an amount, debit or credit column heading. If this is a bank statement, export it as Excel, CSV, MT940, CAMT.053 or OFX instead.`
    )
  const { columns, used } = columnsOf(lines, at, fieldOf)
  const headerNames = new Set(columns.map((c) => normaliseHeader(c.name)))
  const headerLine = lines[at] as PdfLine
  const dateColumn = columns.findIndex((c) => fieldOf(c.name) === 'date')
  const furniture = furnitureOf(lines, text.pages)
  const setAside: PdfLayout['setAside'] = []
  const rows: string[][] = []
  const rowLines: number[] = []
  // The first page's lines above the header: the bank's header block, as cells parted by wide gaps.
  for (let i = 0; i < (used[0] as number); i++) {
    const line = lines[i] as PdfLine
    if (line.page !== headerLine.page) setAside.push({ line: line.line, reason: 'before the statement table' })
    else if (furniture.has(line.line)) setAside.push({ line: line.line, reason: `page header or footer (page ${line.page})` })
    else {
      rows.push(chunksOf(line.pieces).map((c) => c.text))
      rowLines.push(line.line)
    }
  }
  rows.push(columns.map((c) => c.name))
  rowLines.push(headerLine.line)

  interface Row {
    cells: string[]
    page: number
    /** The y of its last line, to tell a wrapped line from the next row's. */
    lastY: number
    size: number
  }
  let open: Row | null = null
  let waiting: { cells: string[]; line: number } | null = null
  const cellsOf = (line: PdfLine): string[] => {
    const cells = columns.map(() => '')
    for (const piece of line.pieces) {
      const k = columnOf(columns, piece)
      cells[k] = cells[k] === '' ? piece.text : `${cells[k]} ${piece.text}`
    }
    return cells
  }
  const wrapOnly = (cells: readonly string[]): boolean =>
    cells.every((c, k) => c === '' || ((columns[k] as Column).text && !/^\d[\d,.\s]*$/.test(c) && readDateShape(c) === null))
  const extend = (row: { cells: string[] }, cells: readonly string[], before: boolean): void => {
    cells.forEach((c, k) => {
      if (c === '') return
      const joinWith = (columns[k] as Column).joinWith
      const have = row.cells[k] as string
      row.cells[k] = have === '' ? c : before ? joinWrapped(c, have, joinWith) : joinWrapped(have, c, joinWith)
    })
  }
  for (let i = (used[used.length - 1] as number) + 1; i < lines.length; i++) {
    const line = lines[i] as PdfLine
    if (furniture.has(line.line)) {
      setAside.push({ line: line.line, reason: `page header or footer (page ${line.page})` })
      continue
    }
    const chunks = chunksOf(line.pieces)
    if (chunks.length >= 2 && chunks.filter((c) => headerNames.has(normaliseHeader(c.text))).length >= Math.min(2, headerNames.size)) {
      setAside.push({ line: line.line, reason: `column headers repeated (page ${line.page})` })
      // Words of a wrapped header on the line below are part of it.
      const next = lines[i + 1]
      if (next && headerPart(next, line, chunks) && wrapOnly(cellsOf(next)) && headerWordsOnly(next, headerNames)) {
        setAside.push({ line: next.line, reason: `column headers repeated (page ${line.page})` })
        i++
      }
      continue
    }
    const cells = cellsOf(line)
    const size = line.pieces[0]?.size ?? 10
    const dated = dateColumn >= 0 && readDateShape(cells[dateColumn] as string) !== null
    // A wrapped narration starts inside its column and says nothing of balances or totals ("Closing balance: …" is a line of its own).
    const inColumns = line.pieces.every((p) => p.x >= (columns[columnOf(columns, p)] as Column).from - size)
    if (!dated && wrapOnly(cells) && inColumns && !BALANCE_OR_TOTAL.test(cells.join(' '))) {
      // Words only: the narration of the row above wrapped, or of the row below when that is nearer.
      const nextLine = lines[i + 1]
      const gapAbove = open && open.page === line.page ? open.lastY - line.y : open ? 0 : Infinity
      const gapBelow =
        nextLine && nextLine.page === line.page && !furniture.has(nextLine.line) && !wrapOnly(cellsOf(nextLine))
          ? line.y - nextLine.y
          : Infinity
      if (open && gapAbove <= size * 2.2 && gapBelow >= gapAbove * 0.8) {
        extend(open, cells, false)
        open.lastY = line.y
        open.page = line.page
        continue
      }
      if (gapBelow <= size * 2.2) {
        if (waiting) extend(waiting, cells, false)
        else waiting = { cells, line: line.line }
        continue
      }
    }
    // A row of its own: a transaction, a balance line, or words the statement reader then names.
    const row: Row = { cells, page: line.page, lastY: line.y, size }
    if (waiting) {
      extend(row, waiting.cells, true)
      waiting = null
    }
    rows.push(row.cells)
    rowLines.push(line.line)
    open = row
  }
  if (waiting) {
    rows.push(waiting.cells)
    rowLines.push(waiting.line)
  }
  return { grid: { rows, lines: rowLines, separator: null, sheet: null }, setAside, pageStarts: text.pageStarts }
}

function headerWordsOnly(line: PdfLine, names: ReadonlySet<string>): boolean {
  return chunksOf(line.pieces).every((c) => [...names].some((n) => n.includes(normaliseHeader(c.text))))
}
