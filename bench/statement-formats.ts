// Statement format benchmarks: 100,000 lines read (format known, read, balances proven) from XLS, XLSX, MT940, CAMT.053 and OFX against importing the same lines as CSV (read, prove and store), and a 500-page text PDF against pdfjs's own text extraction of its pages, all in this run.
import * as XLSX from '@e965/xlsx'
import { openCache } from '../src/main/cache/open'
import { readPdfText } from '../src/main/reconcile/import/pdf'
import { parseStatementFile } from '../src/main/reconcile/import/read-file'
import { ReconService } from '../src/main/reconcile/service'
import { printed } from '../src/sandbox/statement'
import { bankDay, sampleStatementFile } from '../src/sandbox/statement-formats'
import { writeStatementPdf } from '../src/sandbox/statement-pdf'
import type { SampleEntry, SampleStatement } from '../src/sandbox/statement'
import type { SampleFormat } from '../src/shared/reconcile'
import { fmt, line, seconds } from './common'
import { median } from './stats'

const LINES = 100_000
const PDF_PAGES = 500
const ROUNDS = 5
/** A 500-page PDF takes seconds a round: three rounds give its median. */
const PDF_ROUNDS = 3

/** A month of a busy account: LINES lines, a third of them charges, each with its running balance. */
export function bigStatement(lines: number): SampleStatement {
  const entries: SampleEntry[] = []
  let balance = 50_000_000_00
  for (let i = 0; i < lines; i++) {
    const amountMinor = i % 3 === 2 ? -(1_000 + (i % 977) * 13) : 5_000_00 + (i % 7919) * 101
    balance += amountMinor
    entries.push({
      day: `2026-03-${String(1 + Math.floor((i * 31) / lines)).padStart(2, '0')}`,
      reference: amountMinor < 0 ? '' : `TST-${String(i).padStart(7, '0')}`,
      narration: amountMinor < 0 ? 'SMS ALERT CHARGES' : `NIP TRANSFER FROM CUSTOMER ${i % 5003}`,
      amountMinor,
      balanceMinor: balance
    })
  }
  const csv = [
    'SANDBOX TEST BANK PLC',
    'Account number,0123456789',
    'Currency,NGN',
    `Opening balance,"${printed(50_000_000_00)}"`,
    '',
    'Txn Date,Value Date,Reference,Narration,Debit,Credit,Balance',
    ...entries.map(
      (e) =>
        `${e.day},${e.day},${e.reference},${e.narration},${e.amountMinor < 0 ? `"${printed(-e.amountMinor)}"` : ''},${e.amountMinor > 0 ? `"${printed(e.amountMinor)}"` : ''},"${printed(e.balanceMinor)}"`
    ),
    `,,,Closing balance,,,"${printed(balance)}"`
  ].join('\n')
  return {
    csv,
    entries,
    openingMinor: 50_000_000_00,
    closingMinor: balance,
    account: '0123456789',
    day: '2026-03-31',
    currency: 'NGN',
    lines,
    differences: [],
    netOfFees: true
  }
}

/**
 * The lines as an old .xls: a BIFF8 sheet holds at most 65,536 rows, so banks (and this) split a long
 * statement over sheets, each with its header block, opening and closing balance.
 */
function oldExcel(sample: SampleStatement): Uint8Array {
  const book = XLSX.utils.book_new()
  const perSheet = 60_000
  let opening = sample.openingMinor
  for (let start = 0, part = 1; start < sample.entries.length; start += perSheet, part++) {
    const slice = sample.entries.slice(start, start + perSheet)
    const closing = (slice[slice.length - 1] as SampleEntry).balanceMinor
    const amount = (minor: number): number => minor / 100
    const rows: unknown[][] = [
      ['Account number', sample.account],
      ['Currency', 'NGN'],
      ['Opening balance', amount(opening)],
      [],
      ['Txn Date', 'Value Date', 'Reference', 'Narration', 'Debit', 'Credit', 'Balance'],
      ...slice.map((e) => [
        e.day,
        e.day,
        e.reference,
        e.narration,
        e.amountMinor < 0 ? amount(-e.amountMinor) : null,
        e.amountMinor > 0 ? amount(e.amountMinor) : null,
        amount(e.balanceMinor)
      ]),
      [null, null, null, 'Closing balance', null, null, amount(closing)]
    ]
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), `Part ${part}`)
    opening = closing
  }
  return XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint()
  await run()
  return seconds(start) * 1000
}

/** Reads the file as the app does and checks it read every line and proved itself. */
async function read(bytes: Uint8Array, name: string): Promise<void> {
  const statements = await parseStatementFile(bytes, name)
  const rows = statements.reduce((n, s) => n + s.rows.length, 0)
  const complete = statements.every((s) => s.proof?.complete || s.format === 'ofx')
  if (rows === 0 || !complete) throw new Error(`${name}: ${rows} rows read, complete: ${complete}`)
}

export async function statementFormatsBench(): Promise<void> {
  console.log(
    `\nStatement formats (${fmt(LINES)} lines of one account; median of ${ROUNDS}; each ratio against the CSV import of this run)`
  )
  const sample = bigStatement(LINES)
  // Each file written just before it is read, so none is held while another is measured.
  const fileOf = (format: SampleFormat): Uint8Array => (format === 'xls' ? oldExcel(sample) : sampleStatementFile(sample, format).bytes)
  const csv = fileOf('csv')
  // The baseline: importing the CSV into a cache (read, prove, store), as the app does.
  const db = openCache(':memory:')
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('b', 'Bench', null, 'test', '2026-01-01')").run()
  const service = new ReconService(db, { user: 'bench' })
  const csvRuns: number[] = []
  for (let r = 0; r < ROUNDS; r++)
    csvRuns.push(
      await timed(async () => {
        const outcome = await service.importStatement({
          profileId: 'b',
          name: 'march.csv',
          bytes: csv,
          ifSameFile: 'import-again',
          ifSameRows: 'keep'
        })
        if (outcome.status !== 'imported') throw new Error(`CSV import: ${outcome.status}`)
      })
    )
  const csvMs = median(csvRuns)
  db.close()
  line(`import ${fmt(LINES)} lines as CSV (${fmt(csv.byteLength / 1048576, 1)} MB): baseline`, `${fmt(csvMs / 1000, 2)} s`)
  for (const format of ['xlsx', 'xls', 'mt940', 'camt053', 'ofx'] as const) {
    const bytes = fileOf(format)
    const runs: number[] = []
    for (let r = 0; r < ROUNDS; r++) runs.push(await timed(() => read(bytes, `march.${format}`)))
    const ms = median(runs)
    const ratio = ms / csvMs
    line(
      `read ${fmt(LINES)} lines from ${format.toUpperCase()} (${fmt(bytes.byteLength / 1048576, 1)} MB)`,
      `${fmt(ms / 1000, 2)} s`,
      `${fmt(ratio, 2)}× the CSV import; target ≤ 2× ${ratio <= 2 ? 'met' : 'NOT met'}`
    )
  }
  await pdfBench()
}

async function pdfBench(): Promise<void> {
  const rowsPerPage = 48
  const rows: string[][] = []
  let balance = 10_000_000_00
  for (let i = 0; i < PDF_PAGES * rowsPerPage - 4; i++) {
    const minor = i % 4 === 3 ? -(2_500 + i) : 12_000_00 + i * 7
    balance += minor
    rows.push([
      bankDay(`2026-03-${String(1 + (i % 28)).padStart(2, '0')}`),
      `NIP TRANSFER FROM CUSTOMER ${i}`,
      `FT26${String(i).padStart(8, '0')}`,
      minor < 0 ? printed(-minor) : '',
      minor > 0 ? printed(minor) : '',
      printed(balance)
    ])
  }
  const written = writeStatementPdf({
    runningHead: 'SANDBOX TEST BANK PLC - STATEMENT OF ACCOUNT',
    headerBlock: ['Account Number: 0123456789', 'Currency: NGN', `Opening Balance: ${printed(10_000_000_00)}`],
    columns: [
      { name: 'Date', width: 62 },
      { name: 'Narration', width: 170 },
      { name: 'Reference', width: 80 },
      { name: 'Debit', width: 65, align: 'right' },
      { name: 'Credit', width: 65, align: 'right' },
      { name: 'Balance', width: 75, align: 'right' }
    ],
    rows,
    after: [`Closing Balance: ${printed(balance)}`],
    linesPerPage: rowsPerPage + 1
  })
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs')
  // The baseline: pdfjs's own text extraction of every page, nothing more.
  const extract = async (): Promise<void> => {
    const document = await getDocument({ data: new Uint8Array(written.bytes), verbosity: 0, isEvalSupported: false, disableFontFace: true })
      .promise
    for (let p = 1; p <= document.numPages; p++) {
      const page = await document.getPage(p)
      await page.getTextContent()
      page.cleanup()
    }
    await document.destroy()
  }
  await readPdfText(written.bytes, 'warm-up.pdf')
  const pairs: { baseline: number; ours: number }[] = []
  for (let r = 0; r < PDF_ROUNDS; r++) {
    const baseline = await timed(extract)
    const ours = await timed(() => read(written.bytes, 'statement.pdf'))
    pairs.push({ baseline, ours })
  }
  const ours = median(pairs.map((p) => p.ours))
  const baseline = median(pairs.map((p) => p.baseline))
  const ratio = median(pairs.map((p) => p.ours / p.baseline))
  line(
    `read a ${written.pages}-page text PDF statement (${fmt(rows.length)} lines, ${fmt(written.bytes.byteLength / 1048576, 1)} MB): read, lay out, prove`,
    `${fmt(ours / 1000, 2)} s`,
    `target ≤ 20 s ${ours <= 20_000 ? 'met' : 'NOT met'}; ${fmt(ratio, 2)}× pdfjs's text extraction (target ≤ 1.5× ${ratio <= 1.5 ? 'met' : 'NOT met'})`
  )
  line(`  pdfjs getTextContent of every page (baseline), median`, `${fmt(baseline / 1000, 2)} s`)
}
