// `ledgerline csv validate` as a user runs it: local rules with a synced cache, the API's own validation, exit codes 0/1/2 and the JSON shape.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { runCli } from '../support/cli'

let sandbox: Sandbox
let dir: string
let db: string
let env: NodeJS.ProcessEnv

const HEADER = 'amount,currency,bank_code,branch_code,account_number,account_name,narration'
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

interface JsonReport {
  valid: boolean
  rows: number
  errors: { row: number | null; column: string | null; code: string; message: string }[]
  warnings: { row: number | null; column: string | null; code: string; message: string }[]
  totals: { currency: string; rows: number; amount: string; minor: number }[]
  remote?: { accepted: boolean; totalRequests: number | null; errors: unknown[]; sha256: string }
}

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false })
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-csv-cli-'))
  db = join(dir, 'cache.sqlite')
  env = { LEDGERLINE_API_KEY: sandbox.keys.test }
  // The API lists no plans: the cache holds the plans followed (and those uploaded from here).
  const plan = sandbox.state('test').data.planId(0)
  const sync = await runCli(
    ['sync', '--base-url', sandbox.baseUrl, '--resources', 'banks,plans', '--track-plan', plan, '--no-pacing', '--db', db],
    env
  )
  if (sync.code !== 0) throw new Error(sync.stderr)
})
afterAll(() => sandbox.close())

describe('ledgerline csv validate', { timeout: 60_000 }, () => {
  it('checks bank codes against the synced bank list, says where each problem is, and exits 1', async () => {
    const path = file(
      'payouts.csv',
      `${HEADER}\r\n5000.00,NGN,058,,0123456789,Adaeze Okafor,Salary\r\n"1,200",NGN,123,,0123456789,Bola Ade,Refund\r\n`
    )
    const run = await runCli(['csv', 'validate', '--kind', 'transfers', '--base-url', sandbox.baseUrl, '--db', db, '--json', path], env)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as JsonReport
    expect(report).toMatchObject({ valid: false, rows: 2, warnings: [] })
    expect(report.errors.map((e) => `${e.row} ${e.column} ${e.code}`)).toEqual([
      '3 amount amount_has_separators',
      '3 bank_code bank_code_unknown'
    ])
    expect(report.totals).toEqual([{ currency: 'NGN', rows: 1, amount: '5000.00', minor: 500000 }])
  })

  it('has the API validate a clean file with --remote, keeps the send in the cache, and exits 0', async () => {
    const path = file(
      'clean.csv',
      `${HEADER}\n5000.00,NGN,058,,0123456789,Adaeze Okafor,Salary\n45.5,GHS,300303,030100,1234567890123,Kofi Mensah,Fees\n`
    )
    const run = await runCli(
      ['csv', 'validate', '--kind', 'transfers', '--base-url', sandbox.baseUrl, '--db', db, '--remote', '--json', path],
      env
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as JsonReport
    expect(report.valid).toBe(true)
    expect(report.remote).toMatchObject({ accepted: true, totalRequests: 2, errors: [] })
    const cache = new Database(db, { readonly: true })
    const sent = cache.prepare('select kind, action, transport, file_name, sha256, rows, accepted from bulk_sends').all()
    cache.close()
    expect(sent).toEqual([
      {
        kind: 'transfers',
        action: 'validate',
        transport: 'json',
        file_name: 'clean.csv',
        sha256: report.remote?.sha256,
        rows: 2,
        accepted: 1
      }
    ])
    const human = await runCli(['csv', 'validate', '--kind', 'transfers', '--base-url', sandbox.baseUrl, '--db', db, '--remote', path], env)
    expect(human.stdout).toContain('The API accepted all 2 rows.')
  })

  it('finds a plan reference already used by a cached plan', async () => {
    const cache = new Database(db, { readonly: true })
    const used = cache.prepare('select internal_reference from plans where internal_reference is not null limit 1').pluck().get() as string
    cache.close()
    const path = file(
      'plans.csv',
      `title,frequency,amount,currency,internalReference,pricingOptions\nGold,monthly,5000,NGN,${used},NGN:5000\nSilver,Monthly,100,NGN,NEW-1,NGN:100\n`
    )
    const run = await runCli(['csv', 'validate', '--kind', 'plans', '--base-url', sandbox.baseUrl, '--db', db, path], env)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('row 2, internalReference: internal_reference_in_use')
    expect(run.stdout).toContain(
      'row 3, frequency: frequency_invalid: Frequency "Monthly" is not one of daily, weekly, monthly, quarterly, biannually, annually; write monthly.'
    )
  })

  it('exits 2 for a file that is not CSV or is missing, and refuses --remote for plans', async () => {
    const workbook = file('book.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]).toString('latin1'))
    const notCsv = await runCli(['csv', 'validate', '--kind', 'transfers', workbook])
    expect(notCsv.code).toBe(2)
    expect(notCsv.stdout).toContain('not_csv: This is an Excel workbook')
    const missing = await runCli(['csv', 'validate', '--kind', 'transfers', join(dir, 'nope.csv')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('no such file')
    const plans = await runCli(['csv', 'validate', '--kind', 'plans', '--remote', join(dir, 'plans.csv')])
    expect(plans.code).toBe(2)
    expect(plans.stderr).toContain('no validation call for plan files')
  })
})
