// Bank statement PDFs with the quirks real ones have (narrations wrapped across a page break, repeated headers, a running head and page numbers, a password, a broken running balance, headers in no list, a scan), written by the Sandbox's PDF writer for the PDF reader's tests.
import PDFDocument from 'pdfkit'
import { printed } from '../../src/sandbox/statement'
import { bankDay } from '../../src/sandbox/statement-formats'
import { endPdf, writeStatementPdf, type PdfColumn, type PdfStatementFile } from '../../src/sandbox/statement-pdf'

export const CORPUS_PASSWORD = 'Ledger-2026!'

/** Lines of one statement: [day, narration, reference, signed kobo]; the running balance follows from the opening one. */
export interface CorpusLine {
  day: string
  narration: string
  reference: string
  minor: number
}

export const OPENING_MINOR = 125_000_00

/** Twelve lines, some with narrations long enough to wrap over three lines. */
export function corpusLines(count = 12): CorpusLine[] {
  const out: CorpusLine[] = []
  for (let i = 1; i <= count; i++) {
    const day = `2026-03-${String(1 + Math.floor(i / 2)).padStart(2, '0')}`
    out.push(
      i % 4 === 0
        ? { day, narration: 'SMS ALERT CHARGES', reference: `CHG${i}`, minor: -50_00 }
        : i % 3 === 0
          ? {
              day,
              narration: `TRANSFER TO ADAEZE OKONKWO FOR SUPPLIES INVOICE ${9000 + i} VIA NIP OUTWARD MOBILE APP`,
              reference: `NIP${i}OUT`,
              minor: -(12_345_67 + i)
            }
          : {
              day,
              narration: `NIP TRANSFER FROM CUSTOMER ${i} PAYMENT FOR ORDER ${4000 + i} REF TST-${String(i).padStart(7, '0')} VIA GTWORLD`,
              reference: `TST-${String(i).padStart(7, '0')}`,
              minor: 25_000_00 + i * 1_11
            }
    )
  }
  return out
}

export interface CorpusOptions {
  lines?: CorpusLine[]
  password?: string
  /** Lines of table per page: small, so rows split across pages. */
  linesPerPage?: number
  /** Headers in no list (the user maps them). */
  columns?: PdfColumn[]
  /** Leaves the closing balance off. */
  noClosing?: boolean
  /** Leaves this line (by index) off the page, its amount still in the running balances after it: a statement with a break. */
  omit?: number
}

const BANK_COLUMNS: PdfColumn[] = [
  { name: 'Trans Date', width: 60 },
  { name: 'Value Date', width: 60 },
  { name: 'Narration', width: 150 },
  { name: 'Reference', width: 70 },
  { name: 'Debit', width: 60, align: 'right' },
  { name: 'Credit', width: 60, align: 'right' },
  { name: 'Balance', width: 65, align: 'right' }
]

/** A statement as a bank's PDF: running head, header block, table, closing balance, "Page n of m". */
export function corpusPdf(options: CorpusOptions = {}): PdfStatementFile & { lines: CorpusLine[]; closingMinor: number } {
  const lines = options.lines ?? corpusLines()
  let balance = OPENING_MINOR
  const rows = lines.flatMap((l, k) => {
    balance += l.minor
    if (k === options.omit) return []
    return [
      [
        bankDay(l.day),
        bankDay(l.day),
        l.narration,
        l.reference,
        l.minor < 0 ? printed(-l.minor) : '',
        l.minor > 0 ? printed(l.minor) : '',
        printed(balance)
      ]
    ]
  })
  const written = writeStatementPdf({
    runningHead: 'FIRST SANDBOX BANK - CUSTOMER STATEMENT',
    headerBlock: [
      'Account Name: ACME TRADING LTD',
      'Account Number: 0123456789',
      'Currency: NGN',
      `Opening Balance: ${printed(OPENING_MINOR)}`
    ],
    columns: options.columns ?? BANK_COLUMNS,
    rows,
    after: options.noClosing ? [] : [`Closing Balance: ${printed(balance)}`],
    linesPerPage: options.linesPerPage ?? 10,
    ...(options.password ? { password: options.password } : {})
  })
  return { ...written, lines, closingMinor: balance }
}

/** A "scanned" statement: pages with drawings and no text layer. */
export function scannedPdf(): Buffer {
  const doc = new PDFDocument({ size: 'A4', info: { CreationDate: new Date(Date.UTC(2026, 0, 1)) } })
  for (let p = 0; p < 2; p++) {
    if (p > 0) doc.addPage()
    for (let k = 0; k < 40; k++) doc.rect(40, 60 + k * 18, 500, 10).fill(k % 2 ? '#333333' : '#999999')
  }
  return endPdf(doc)
}
