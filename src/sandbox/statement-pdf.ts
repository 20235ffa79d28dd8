// A bank statement written as a text PDF (pdfkit) the way banks lay them out: a header block, a table whose narrations wrap, rows split across pages under a repeated header, a running head and "Page n of m" on every page, and, when asked, a password.
import PDFDocument from 'pdfkit'

export interface PdfColumn {
  name: string
  width: number
  align?: 'left' | 'right'
}

export interface PdfStatementSpec {
  /** Lines above the table on the first page: the bank's name, the account, its currency, the opening balance. */
  headerBlock: string[]
  columns: PdfColumn[]
  /** One cell per column; a cell wider than its column wraps over several lines. */
  rows: string[][]
  /** Lines under the table on the last page ("Closing balance 1,000.00"). */
  after?: string[]
  /** Printed at the top of every page (a running head the reader must set aside). */
  runningHead?: string
  /** Opens the file (AES-256, as banks' PDFs are); none: not protected. */
  password?: string
  fontSize?: number
  /** Lines of table per page, header included (small values force page breaks in tests). */
  linesPerPage?: number
}

export interface PdfStatementFile {
  bytes: Buffer
  pages: number
  /** The file-wide line (as the PDF reader counts them) of each row's first line. */
  rowLines: number[]
  /** The file-wide line each page starts on. */
  pageStarts: number[]
}

const MARGIN = 36
const PAGE = { width: 595.28, height: 841.89 }
/** Every file written the same way has the same bytes (the sample is found again as the same file). */
const FIXED_DATE = new Date(Date.UTC(2026, 0, 1))

/** Words of a cell broken into lines no wider than the column. */
function wrap(doc: PDFKit.PDFDocument, text: string, width: number): string[] {
  const out: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const tried = line === '' ? word : `${line} ${word}`
    if (line !== '' && doc.widthOfString(tried) > width) {
      out.push(line)
      line = word
    } else line = tried
  }
  if (line !== '' || out.length === 0) out.push(line)
  return out
}

export function writeStatementPdf(spec: PdfStatementSpec): PdfStatementFile {
  const size = spec.fontSize ?? 8
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: true,
    compress: true,
    info: { Title: 'Statement of account', Producer: 'Ledgerline Sandbox', Creator: 'Ledgerline Sandbox', CreationDate: FIXED_DATE },
    ...(spec.password ? { userPassword: spec.password, ownerPassword: `${spec.password}-owner`, pdfVersion: '1.7ext3' as const } : {})
  })
  doc.font('Helvetica').fontSize(size)
  const step = size * 1.35
  const bottom = PAGE.height - MARGIN - step * 2
  const maxLines = spec.linesPerPage ?? Math.floor((bottom - MARGIN) / step)
  const lefts: number[] = []
  let x = MARGIN
  for (const c of spec.columns) {
    lefts.push(x)
    x += c.width
  }
  const put = (text: string, column: number, y: number): void => {
    const c = spec.columns[column] as PdfColumn
    const left = lefts[column] as number
    const at = c.align === 'right' ? left + c.width - 4 - doc.widthOfString(text) : left
    doc.text(text, at, y, { lineBreak: false })
  }
  const rowLines: number[] = []
  const pageStarts = [1]
  let linesBefore = 0
  let onPage = 0
  let tableLines = 0
  let y = MARGIN
  const line = (write: (y: number) => void): void => {
    write(y)
    y += step
    onPage++
  }
  const startPage = (first: boolean): void => {
    if (!first) {
      doc.addPage()
      linesBefore += onPage + 1 // the page's footer
      pageStarts.push(linesBefore + 1)
      onPage = 0
      y = MARGIN
    }
    tableLines = 0
    if (spec.runningHead) line((at) => doc.text(spec.runningHead as string, MARGIN, at, { lineBreak: false }))
    if (first) for (const text of spec.headerBlock) line((at) => doc.text(text, MARGIN, at, { lineBreak: false }))
    y += step / 2
    line((at) => spec.columns.forEach((c, k) => put(c.name, k, at)))
    tableLines++
  }
  startPage(true)
  for (const row of spec.rows) {
    const wrapped = row.map((cell, k) =>
      spec.columns[k]?.align === 'right' ? [cell] : wrap(doc, cell, (spec.columns[k] as PdfColumn).width - 8)
    )
    const height = Math.max(...wrapped.map((w) => w.length))
    if (tableLines >= maxLines) startPage(false)
    rowLines.push(linesBefore + onPage + 1)
    for (let k = 0; k < height; k++) {
      // A row taller than what is left of the page goes on under the next page's header.
      if (k > 0 && tableLines >= maxLines) startPage(false)
      line((at) => wrapped.forEach((cells, c) => cells[k] !== undefined && cells[k] !== '' && put(cells[k] as string, c, at)))
      tableLines++
    }
  }
  y += step / 2
  for (const text of spec.after ?? []) line((at) => doc.text(text, MARGIN, at, { lineBreak: false }))
  const range = doc.bufferedPageRange()
  for (let p = 0; p < range.count; p++) {
    doc.switchToPage(p)
    doc.text(`Page ${p + 1} of ${range.count}`, MARGIN, PAGE.height - MARGIN - step, { lineBreak: false })
  }
  return { bytes: endPdf(doc), pages: range.count, rowLines, pageStarts }
}

/** Ends a pdfkit document and gives its bytes: pdfkit pushes every byte by the time end() returns, so they are read without waiting for the stream. */
export function endPdf(doc: PDFKit.PDFDocument): Buffer {
  doc.end()
  const chunks: Buffer[] = []
  for (let chunk = doc.read() as Buffer | null; chunk !== null; chunk = doc.read() as Buffer | null) chunks.push(chunk)
  return Buffer.concat(chunks)
}
