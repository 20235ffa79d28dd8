// Month-end from the CLI, what stays open moves on: October closes with a payment in transit, one pending at the provider, one that never arrives and a bank charge no record explains; November's statement clears the first two (the pending one as the provider now has it), its bank reconciliation shows what came forward as a class and still foots, and December carries what is still open with its first period and its age.
import Database from 'better-sqlite3'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { readExcelCsv } from '../support/excel-csv'
import { cacheWithPayments, monthStatement } from '../support/month-statements'
import { HANG_LIMIT_MS } from '../support/wait'

let dir: string
let cache: string

const statement = (name: string, opening: string, lines: [string, string, string][], closing: string, account?: string): string =>
  monthStatement(dir, name, opening, lines, closing, account)

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-carried-'))
  cache = join(dir, 'cache.sqlite')
  cacheWithPayments(cache, [
    ['id-a', 'INV-A', 12.5, 'successful', '2026-10-13T10:00:00Z'],
    ['id-b', 'INV-B', 30, 'successful', '2026-10-20T10:00:00Z'],
    ['id-p', 'INV-P', 5, 'pending', '2026-10-22T10:00:00Z'],
    ['id-q', 'INV-Q', 8, 'successful', '2026-10-25T10:00:00Z'],
    ['id-n', 'INV-NOV', 20, 'successful', '2026-11-05T10:00:00Z']
  ])
})

/** Reconciles a statement over a month: the session's id, what was said, and its items report's rows. */
async function reconcile(path: string, from: string, to: string) {
  const out = `${path}.report.csv`
  const run = await runCli(['reconcile', '--db', cache, '--against', path, '--from', from, '--to', to, '--out', out])
  expect([0, 1], run.stderr).toContain(run.code)
  const id = /\(session ([0-9a-f-]+)\)/.exec(run.stdout)?.[1] as string
  const rows = readExcelCsv(out)
  return { id, out: run.stdout, rows }
}

const byReference = (rows: Record<string, string>[], reference: string): Record<string, string> | undefined =>
  rows.find((r) => r.provider_reference === reference || r.file_reference === reference)

describe('items carried forward, month after month', { timeout: HANG_LIMIT_MS }, () => {
  it('brings what October left open into November, clears what matches there, and carries the rest on with its first period', async () => {
    const oct = await reconcile(
      statement(
        'oct.csv',
        '1000.00',
        [
          ['2026-10-13', 'INV-A', '12.50'],
          ['2026-10-20', '', '-0.50']
        ],
        '1012.00'
      ),
      '2026-10-01',
      '2026-10-31'
    )
    expect(oct.out).not.toContain('carried forward')
    expect((await runCli(['close', '--db', cache, '--session', oct.id])).code).toBe(0)

    // The pending payment succeeded after October closed, as a sync would find.
    const db = new Database(cache)
    db.prepare("update payments set status = 'successful', status_raw = 'SUCCESS' where id = 'id-p'").run()
    db.close()

    const nov = await reconcile(
      statement(
        'nov.csv',
        '1012.00',
        [
          ['2026-11-04', 'INV-B', '30.00'],
          ['2026-11-05', 'INV-NOV', '20.00'],
          ['2026-11-06', 'INV-P', '5.00']
        ],
        '1067.00'
      ),
      '2026-11-01',
      '2026-11-30'
    )
    expect(nov.out).toContain('its opening NGN 1,012.00 ties to that closing')
    // Cleared here: the payment in transit and the one pending at the provider, each said to come from October.
    for (const ref of ['INV-B', 'INV-P']) {
      const row = byReference(nov.rows, ref)
      expect(row, ref).toMatchObject({ outcome: 'matched', carried_from: '2026-10-01 to 2026-10-31' })
      expect(row?.reasons).toContain('is carried forward from "oct.csv against payments, 2026-10-01 to 2026-10-31"')
    }
    // Still open: the payment that never arrived, and October's bank charge, on its own line of oct.csv.
    expect(byReference(nov.rows, 'INV-Q')).toMatchObject({ outcome: 'only_in_provider', carried_from: '2026-10-01 to 2026-10-31' })
    const charge = nov.rows.find((r) => r.outcome === 'only_in_file')
    expect(charge).toMatchObject({ file_name: 'oct.csv', file_line: '6', carried_from: '2026-10-01 to 2026-10-31' })
    expect(byReference(nov.rows, 'INV-NOV')).toMatchObject({ outcome: 'matched', carried_from: '' })
    // The bank reconciliation shows what came forward as classes of its own, and still foots to the statement.
    expect(nov.out).toMatch(/Provider's records for the period, as expected at the bank.* \(1\) +NGN 20\.00/)
    expect(nov.out).toMatch(/Provider's records carried forward from earlier periods, still open there \(3\) +NGN 43\.00/)
    expect(nov.out).toMatch(/Lines of earlier periods' statements carried forward \(on those statements, not this one\) \(1\) +NGN 0\.50/)
    expect(nov.out).toMatch(/Items carried forward from earlier periods: 2 cleared in this period, 2 still open/)
    expect(nov.out).toContain(
      'Carried forward from earlier periods, in the totals above: 3 provider record(s) (NGN 43.00) and 1 line(s) of earlier statements (-NGN 0.50); 2 item(s) cleared here, 2 still open'
    )
    expect(nov.out).toMatch(/Closing balance as the lines add up +NGN 1,067\.00/)
    expect(nov.out).toMatch(/Difference left +NGN 0\.00/)
    expect(nov.out).toContain('Accounted for, but 2 items left to review.')
    expect((await runCli(['close', '--db', cache, '--session', nov.id])).code).toBe(0)

    // December: what is still open comes on from its first period, aged from its own day; an opening that does not tie is named.
    const dec = await reconcile(statement('dec.csv', '1060.00', [], '1060.00'), '2026-12-01', '2026-12-31')
    expect(dec.out).toContain('CHAIN: The opening balance NGN 1,060.00 (dec.csv) does not tie to the closing balance NGN 1,067.00')
    expect(byReference(dec.rows, 'INV-Q')).toMatchObject({ outcome: 'only_in_provider', carried_from: '2026-10-01 to 2026-10-31' })
    expect(dec.rows.find((r) => r.outcome === 'only_in_file')).toMatchObject({
      file_name: 'oct.csv',
      carried_from: '2026-10-01 to 2026-10-31'
    })
    expect(dec.rows.map((r) => r.outcome).sort()).toEqual(['only_in_file', 'only_in_provider'])
    // INV-Q has waited from 25 October to 31 December: 67 days.
    expect(dec.out).toContain("Only at the provider, by age at the period's end: 61–90 days 1 (NGN 8.00)")
    expect(dec.out).toContain("Only in the file, by age at the period's end: 61–90 days 1 (-NGN 0.50)")
  })
})
