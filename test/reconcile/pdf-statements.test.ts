// PDF statements: read by where each piece of text sits (header row, columns, narrations wrapped across pages, repeated headers and page furniture set aside), opened with a password never kept, proven by their running balance with breaks named by page and line; scans and damaged files refused clearly.
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import PDFDocument from 'pdfkit'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { AppError } from '../../src/main/errors'
import { readPdfText } from '../../src/main/reconcile/import/pdf'
import { parseStatementFile } from '../../src/main/reconcile/import/read-file'
import { ReconService } from '../../src/main/reconcile/service'
import { sampleStatement } from '../../src/sandbox/statement'
import { sampleStatementFile } from '../../src/sandbox/statement-formats'
import { sandboxSeed } from '../../src/sandbox/seed'
import { endPdf } from '../../src/sandbox/statement-pdf'
import { lineWhere } from '../../src/shared/reconcile'
import { CORPUS_PASSWORD, corpusLines, corpusPdf, OPENING_MINOR, scannedPdf } from '../support/pdf-corpus'
import { propertyRuns } from '../support/property'

const refusal = async (bytes: Uint8Array, password?: string): Promise<AppError> => {
  try {
    await parseStatementFile(bytes, 'statement.pdf', {}, { password })
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return error as AppError
  }
  throw new Error('the PDF was read')
}

describe('a text PDF statement', () => {
  it('reads each transaction once, its narration joined across lines and pages, and proves itself by its balances', async () => {
    const pdf = corpusPdf({ linesPerPage: 8 })
    expect(pdf.pages).toBeGreaterThan(2)
    // Some narration really is split by a page break: a page whose first table line (under the repeated header) has no date.
    const text = await readPdfText(pdf.bytes, 'statement.pdf')
    const splitPages = text.pageStarts.slice(1).filter((start) => {
      const first = text.lines.find((l) => l.line === start + 2)
      return first !== undefined && !/\d{2}-[A-Z][a-z]{2}-\d{4}/.test(first.pieces.map((p) => p.text).join(' '))
    })
    expect(splitPages.length).toBeGreaterThan(0)

    const [s] = await parseStatementFile(pdf.bytes, 'statement.pdf')
    expect(s?.format).toBe('pdf')
    expect(s?.problems).toEqual([])
    expect(s?.questions).toEqual([])
    expect(s?.rows.all().map((r) => [r.date, r.amountMinor, r.reference, r.description])).toEqual(
      pdf.lines.map((l) => [l.day, l.minor, l.reference, l.narration])
    )
    expect(s?.rows.all().map((r) => r.line)).toEqual(pdf.rowLines)
    expect(s?.pageStarts).toEqual(pdf.pageStarts)
    expect(s?.proof).toMatchObject({
      account: '0123456789',
      currency: 'NGN',
      openingMinor: OPENING_MINOR,
      openingFrom: 'statement',
      closingMinor: pdf.closingMinor,
      closingFrom: 'statement',
      breaks: [],
      complete: true
    })
    // Running heads, page numbers and repeated column headers are set aside, each named with its page.
    const reasons = s?.skipped.map((k) => k.reason) ?? []
    expect(reasons).toContain('column headers repeated (page 2)')
    expect(reasons.filter((r) => /^page header or footer/.test(r)).length).toBeGreaterThanOrEqual(pdf.pages * 2 - 1)
  })

  it('names a break in the running balance by its page and line, and never calls that statement complete', async () => {
    const lines = corpusLines(12)
    const full = corpusPdf({ lines, linesPerPage: 8 })
    // The bank's PDF left one line out: its balances still count it.
    const missing = 6
    const [whole] = await parseStatementFile(full.bytes, 'statement.pdf')
    expect(whole?.proof?.complete).toBe(true)
    const withGap = corpusPdf({ lines, linesPerPage: 8, omit: missing })
    const [s] = await parseStatementFile(withGap.bytes, 'statement.pdf')
    expect(s?.questions).toEqual([])
    expect(s?.proof?.complete).toBe(false)
    expect(s?.proof?.breaks).toHaveLength(1)
    const at = s?.proof?.breaks[0]?.line as number
    expect(at).toBe(withGap.rowLines[missing])
    expect(lineWhere(at, s?.pageStarts)).toMatch(/^page \d+, line \d+$/)
    expect(lineWhere(at, s?.pageStarts)).toBe(lineWhere(withGap.rowLines[missing] as number, withGap.pageStarts))
    expect(withGap.pages).toBeGreaterThan(1)
  })

  it('opens a protected statement only with its password, and never says the password', async () => {
    const pdf = corpusPdf({ password: CORPUS_PASSWORD })
    const none = await refusal(pdf.bytes)
    expect(none.code).toBe('pdf_password_required')
    expect(none.message).toMatch(/statement\.pdf is protected by a password/)
    const wrong = await refusal(pdf.bytes, 'ledger-2026!')
    expect(wrong.code).toBe('pdf_password_wrong')
    const [s] = await parseStatementFile(pdf.bytes, 'statement.pdf', {}, { password: CORPUS_PASSWORD })
    expect(s?.rows).toHaveLength(pdf.lines.length)
    expect(s?.proof?.complete).toBe(true)
    expect(JSON.stringify(s)).not.toContain(CORPUS_PASSWORD)
    for (const e of [none, wrong]) expect(e.message).not.toContain(CORPUS_PASSWORD)
  })

  it('keeps the password out of the cache: nothing stored holds it', async () => {
    const db = openCache(':memory:')
    db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('test', 'Acme test', null, 'test', '2026-01-01')").run()
    const service = new ReconService(db, { user: 'ada' })
    const pdf = corpusPdf({ password: CORPUS_PASSWORD })
    const outcome = await service.importStatement({ profileId: 'test', name: 'march.pdf', bytes: pdf.bytes, password: CORPUS_PASSWORD })
    expect(outcome.status).toBe('imported')
    const dump = JSON.stringify(db.prepare('select * from recon_files').all(), (_k, v: unknown) => (Buffer.isBuffer(v) ? null : v))
    expect(dump).not.toContain(CORPUS_PASSWORD)
    expect(JSON.stringify(db.prepare('select * from recon_presets').all())).not.toContain(CORPUS_PASSWORD)
    const file = service.files('test')[0]
    expect(file).toMatchObject({ format: 'pdf', pageStarts: pdf.pageStarts, rows: pdf.lines.length })
  })

  it('takes a header row in no list, and reapplies the corrected layout to that bank’s next statement', async () => {
    const db = openCache(':memory:')
    db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('test', 'Acme test', null, 'test', '2026-01-01')").run()
    const service = new ReconService(db, { user: 'ada' })
    const columns = [
      { name: 'Posted On', width: 60 },
      { name: 'Booked', width: 60 },
      { name: 'Particulars', width: 150 },
      { name: 'Doc No', width: 70 },
      { name: 'Withdrawn', width: 60, align: 'right' as const },
      { name: 'Lodged', width: 60, align: 'right' as const },
      { name: 'Ledger', width: 65, align: 'right' as const }
    ]
    const march = corpusPdf({ columns })
    // The first guess takes the header row, but not what "Withdrawn", "Lodged" and "Ledger" are: the statement does not prove itself.
    const first = await service.importStatement({ profileId: 'test', name: 'march.pdf', bytes: march.bytes, previewOnly: true })
    expect(first.parsed.header).toEqual(columns.map((c) => c.name))
    expect(first.parsed.proof?.complete).toBe(false)
    const mapping = {
      columns: {
        date: 'Posted On',
        description: 'Particulars',
        reference: 'Doc No',
        debit: 'Withdrawn',
        credit: 'Lodged',
        balance: 'Ledger'
      }
    }
    const answered = await service.importStatement({ profileId: 'test', name: 'march.pdf', bytes: march.bytes, mapping })
    expect(answered.status).toBe('imported')
    expect(answered.parsed.proof?.complete).toBe(true)
    service.savePreset('Sandbox Bank PDF', answered.parsed.headerSignature, answered.parsed.mapping)
    const april = corpusPdf({ columns, lines: corpusLines(7).map((l) => ({ ...l, day: l.day.replace('-03-', '-04-') })) })
    const next = await service.importStatement({ profileId: 'test', name: 'april.pdf', bytes: april.bytes })
    expect(next).toMatchObject({ status: 'imported', presetApplied: 'Sandbox Bank PDF', file: { rows: 7 } })
    expect(next.parsed.rows.all().map((r) => r.description)).toEqual(april.lines.map((l) => l.narration))
  })

  it('reads the Sandbox sample PDF to the same lines as its CSV', async () => {
    const sample = sampleStatement(sandboxSeed({ seed: 3, payments: 1500 }), { timeZone: 'Africa/Lagos' })
    const [fromPdf] = await parseStatementFile(sampleStatementFile(sample, 'pdf').bytes, 'sample.pdf')
    const [fromCsv] = await parseStatementFile(sampleStatementFile(sample, 'csv').bytes, 'sample.csv')
    const key = (r: { date: string; amountMinor: number; reference: string | null; description: string | null }) =>
      [r.date, r.amountMinor, r.reference, r.description].join('|')
    expect(fromPdf?.rows.all().map(key)).toEqual(fromCsv?.rows.all().map(key))
    expect(fromPdf?.proof?.complete).toBe(true)
  })
})

describe('PDFs that are not text statements', () => {
  it('refuses a scan, saying there is no OCR and what to download instead', async () => {
    const e = await refusal(scannedPdf())
    expect(e.code).toBe('scanned_pdf')
    expect(e.message).toMatch(/scanned PDF.*no text.*does no OCR.*Excel, CSV, MT940/)
  })

  it('refuses a letter with no table of transactions', async () => {
    const doc = new PDFDocument()
    doc.text('Dear customer, your statement for March is attached to this email. Kind regards, Sandbox Bank.', 50, 50)
    const e = await refusal(endPdf(doc))
    expect(e.code).toBe('pdf_no_table')
  })

  it('never crashes on a PDF cut short, or on bytes behind a PDF header', async () => {
    const pdf = corpusPdf()
    const settle = async (bytes: Uint8Array): Promise<void> => {
      try {
        await parseStatementFile(bytes, 'statement.pdf')
      } catch (error) {
        expect(error, String(error)).toBeInstanceOf(AppError)
        expect((error as AppError).message).toMatch(/statement\.pdf/)
      }
    }
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: pdf.bytes.length - 1 }), async (at) => settle(pdf.bytes.subarray(0, at))),
      propertyRuns(40)
    )
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), async (tail) => settle(Buffer.concat([Buffer.from('%PDF-1.7\n'), tail]))),
      propertyRuns(60)
    )
  })

  // Two of the Sandbox's sample PDFs damaged by the hostile-files run. The first lost the end of its last page's
  // content (13 lines and the closing balance line): its lines still chain to the last running balance, and it
  // was called complete. The second has a page whose table holds a header and no figures, and crashed.
  it('never calls a PDF whose last page lost its end complete, and reads a page with a header and no figures', async () => {
    const [cut] = await parseStatementFile(readFileSync('test/fixtures/statements/damaged-last-page.pdf'), 'statement.pdf')
    expect(cut?.rows.length).toBe(352)
    expect(cut?.proof).toMatchObject({ closingFrom: 'running balance', tieGapMinor: 0, complete: false })
    expect(cut?.proof?.verdict).toMatch(/does not state its closing balance .*: lines cut from its end would not show/)
    const [odd] = await parseStatementFile(readFileSync('test/fixtures/statements/damaged-page-header-only.pdf'), 'statement.pdf')
    expect(odd?.proof?.complete).toBe(false)
    expect(odd?.problems.length).toBeGreaterThan(0)
  })
})
