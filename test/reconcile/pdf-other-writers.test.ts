// The PDF reader against statements that Ledgerline's own writer (pdfkit) did not make: Chromium's print to PDF of an HTML
// statement (two pages, the column headers repeated, a page footer, narrations wrapped, right-aligned amounts) and a statement
// set with groff and tbl (justified narrations; test/fixtures/statements/groff-statement.tr). Each line expected is written by hand.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { parseStatementFile } from '../../src/main/reconcile/import/read-file'
import { CHROMIUM_ARGS, CHROMIUM_PATH, PROJECT_ROOT } from '../support/renderer-harness'

/** What the reader made of a statement: each line as [day, signed minor units, reference, description], its proof, its pages and what it set aside. */
async function read(bytes: Uint8Array): Promise<{
  lines: [string, number, string | null, string | null][]
  proof: unknown
  problems: unknown
  pages: number
  setAside: string[]
}> {
  const [s] = await parseStatementFile(bytes, 'statement.pdf')
  return {
    lines: (s?.rows.all() ?? []).map((r) => [r.date, r.amountMinor, r.reference, r.description]),
    proof: s?.proof,
    problems: [...(s?.problems ?? []), ...(s?.questions ?? [])],
    pages: s?.pageStarts?.length ?? 0,
    setAside: (s?.skipped ?? []).map((k) => k.reason)
  }
}

const row = (date: string, narration: string, ref: string, debit: string, credit: string, balance: string): string =>
  `<tr><td>${date}</td><td class="narration">${narration}</td><td>${ref}</td><td class="n">${debit}</td><td class="n">${credit}</td><td class="n">${balance}</td></tr>`

const HTML = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { font-family: sans-serif; font-size: 10px; margin: 0; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid #bbb; padding: 3px 4px; text-align: left; vertical-align: top; }
  th.n, td.n { text-align: right; }
  td.narration { width: 190px; }
  tr.next-page { break-before: page; }
</style></head><body>
  <h2>Acme Bank Plc</h2>
  <p>Statement of Account<br>Account Number: 0123456789<br>Currency: NGN<br>Period: 01/03/2026 to 31/03/2026</p>
  <table>
    <thead><tr><th>Date</th><th>Description</th><th>Reference</th><th class="n">Debit</th><th class="n">Credit</th><th class="n">Balance</th></tr></thead>
    <tbody>
      <tr><td></td><td>Opening Balance</td><td></td><td></td><td></td><td class="n">125,000.00</td></tr>
      ${row('16/03/2026', 'NIP TRANSFER FROM CUSTOMER 1 PAYMENT FOR ORDER 4001 REF TST-0000001 VIA GTWORLD MOBILE BANKING APP', 'TST-0000001', '', '25,001.11', '150,001.11')}
      ${row('16/03/2026', 'SMS ALERT CHARGES', 'CHG2', '50.00', '', '149,951.11')}
      ${row('17/03/2026', 'TRANSFER TO ADAEZE OKONKWO FOR SUPPLIES INVOICE 9003', 'NIP3OUT', '12,345.70', '', '137,605.41')}
    </tbody>
    <tbody>
      <tr class="next-page"><td>20/03/2026</td><td class="narration">POS PURCHASE SHOPRITE LEKKI</td><td>POS20</td><td class="n">8,250.00</td><td class="n"></td><td class="n">129,355.41</td></tr>
      ${row('23/03/2026', 'NIP TRANSFER FROM CUSTOMER 4 PAYMENT FOR ORDER 4004', 'TST-0000004', '', '1,000,000.00', '1,129,355.41')}
      <tr><td></td><td>Closing Balance</td><td></td><td></td><td></td><td class="n">1,129,355.41</td></tr>
    </tbody>
  </table>
</body></html>`

describe('PDF statements from other writers', { timeout: 120_000 }, () => {
  it("reads Chromium's print of an HTML statement line for line, across its two pages, and proves it by its balances", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
    let pdf: Buffer
    try {
      const page = await browser.newPage()
      await page.setContent(HTML)
      pdf = await page.pdf({
        format: 'A4',
        displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate:
          '<div style="font-size: 8px; width: 100%; text-align: center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
        margin: { top: '20mm', bottom: '20mm', left: '12mm', right: '12mm' }
      })
    } finally {
      await browser.close()
    }
    const statement = await read(new Uint8Array(pdf))
    expect(statement.problems).toEqual([])
    // Two pages, the headers Chromium repeats on the second and each page's footer set aside, each named.
    expect(statement.pages).toBe(2)
    expect(statement.setAside).toEqual(
      expect.arrayContaining(['column headers repeated (page 2)', 'page header or footer (page 1)', 'page header or footer (page 2)'])
    )
    expect(statement.lines).toEqual([
      [
        '2026-03-16',
        2_500_111,
        'TST-0000001',
        'NIP TRANSFER FROM CUSTOMER 1 PAYMENT FOR ORDER 4001 REF TST-0000001 VIA GTWORLD MOBILE BANKING APP'
      ],
      ['2026-03-16', -5_000, 'CHG2', 'SMS ALERT CHARGES'],
      ['2026-03-17', -1_234_570, 'NIP3OUT', 'TRANSFER TO ADAEZE OKONKWO FOR SUPPLIES INVOICE 9003'],
      ['2026-03-20', -825_000, 'POS20', 'POS PURCHASE SHOPRITE LEKKI'],
      ['2026-03-23', 100_000_000, 'TST-0000004', 'NIP TRANSFER FROM CUSTOMER 4 PAYMENT FOR ORDER 4004']
    ])
    expect(statement.proof).toMatchObject({
      account: '0123456789',
      currency: 'NGN',
      openingMinor: 12_500_000,
      closingMinor: 112_935_541,
      breaks: [],
      complete: true
    })
  })

  it('reads a statement set with groff and tbl line for line, its justified narrations whole, and proves it by its balances', async () => {
    const bytes = readFileSync(join(PROJECT_ROOT, 'test/fixtures/statements/groff-statement.pdf'))
    const statement = await read(new Uint8Array(bytes))
    expect(statement.problems).toEqual([])
    expect(statement.lines).toEqual([
      ['2026-03-14', 125_000, 'MM778', 'MOMO CASH IN FROM KWAME ASANTE FOR INVOICE 778 SETTLEMENT OF ARREARS AND LATE FEES'],
      ['2026-03-15', -30_000, 'ATM15', 'ATM WITHDRAWAL ACCRA MALL'],
      ['2026-03-18', -1_250, 'CHG18', 'CHARGES'],
      ['2026-03-21', 200_000, 'TRF21', 'TRANSFER FROM ABENA MENSAH RENT MARCH']
    ])
    expect(statement.proof).toMatchObject({
      account: '2034567890',
      currency: 'GHS',
      openingMinor: 500_000,
      closingMinor: 793_750,
      breaks: [],
      complete: true
    })
  })
})
