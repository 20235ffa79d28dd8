// The bulk:* calls through main's gate to the real host process: open, refuse a file with errors, send both ways, follow it back, status and retry files, plans, live confirmation.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { providerCsv } from '../../src/shared/bulk/write'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { startTestHost, syncAndWait, valueOf, type TestHost } from '../support/app-env'

let host: TestHost
let live: Sandbox

const PAYOUTS = [
  ['5000.00', 'NGN', '058', '', '0123456789', 'Adaeze Okafor', 'November salary'],
  ['1250.50', 'NGN', '044', '', '2233445599', 'Bola Ade', 'Refund 7'],
  ['45.50', 'GHS', '300303', '030100', '1234567890123', 'Kofi Mensah', 'Fees']
]

beforeAll(async () => {
  host = await startTestHost()
  live = await startSandbox({ rateLimits: false })
  await syncAndWait(host, ['banks'])
})
afterAll(async () => {
  await host.close()
  await live.close()
})

describe('bulk:* through the gate and the host', { timeout: 60_000 }, () => {
  it('opens a real-world CSV into rows and reports what is wrong with the file itself', async () => {
    const file = join(host.ui.exportDir, 'from-excel.csv')
    writeFileSync(
      file,
      '\uFEFFAccount Number;Amount;Currency;Bank Code;Branch Code;Account Name;Narration;Notes\r\n0123456789;5000;NGN;058;;Ada;Salary;x\r\n'
    )
    expect(valueOf(await host.call('bulk:open', { kind: 'transfers' }))).toBeNull()
    host.ui.openAnswer = file
    const opened = valueOf(await host.call('bulk:open', { kind: 'transfers' }))
    expect(opened).toMatchObject({ fileName: 'from-excel.csv', rowCount: 1 })
    expect(valueOf(await host.call('bulk:rows', { token: opened?.token as string, from: 0, count: 10 }))).toBe(
      '5000,NGN,058,,0123456789,Ada,Salary'
    )
    // Read to the end, the file is let go.
    expect(await host.call('bulk:rows', { token: opened?.token as string, from: 0, count: 10 })).toMatchObject({
      ok: false,
      error: { code: 'not_open' }
    })
    expect(opened?.fileProblems.map((p) => p.code).sort()).toEqual(['not_comma_separated', 'unknown_column'])
  })

  it('refuses to send a file with errors, then validates a clean one as JSON and as a form, keeping each send', async () => {
    const bad = await host.call('bulk:send', {
      kind: 'transfers',
      csv: providerCsv('transfers', [['5,000', 'NGN', '058', '', '0123456789', 'Ada', 'Pay']]),
      fileName: 'bad.csv'
    })
    expect(bad).toMatchObject({ ok: false, error: { code: 'file_has_errors', message: expect.stringContaining('row 2, amount:') } })
    expect(valueOf(await host.call('bulk:history', undefined))).toEqual([])

    const csv = providerCsv('transfers', PAYOUTS)
    const asJson = valueOf(await host.call('bulk:send', { kind: 'transfers', csv, fileName: 'november.csv' }))
    expect(asJson).toMatchObject({
      kind: 'transfers',
      action: 'validate',
      transport: 'json',
      accepted: true,
      totalRequests: 3,
      rows: 3,
      problems: [],
      error: null
    })
    expect(asJson.totals.map((t) => `${t.currency} ${t.amount}`)).toEqual(['GHS 45.50', 'NGN 6250.50'])
    const asForm = valueOf(await host.call('bulk:send', { kind: 'transfers', csv, fileName: 'november.csv', transport: 'multipart' }))
    expect(asForm).toMatchObject({ transport: 'multipart', accepted: true, sha256: asJson.sha256 })
    expect(valueOf(await host.call('bulk:history', undefined)).map((s) => s.id)).toEqual([asForm.id, asJson.id])
  })

  it("follows the file the Sandbox was given, and after a sync shows each row's status, a status file and a retry file", async () => {
    const sent = valueOf(await host.call('bulk:history', undefined))[0]
    const followed = valueOf(await host.call('bulk:follow', { sendId: sent?.id as number, submit: true }))
    expect(followed.bulkFileId).toMatch(/^[0-9a-f-]{36}$/)
    const before = valueOf(await host.call('bulk:status', { sendId: followed.id }))
    expect(before.counts).toEqual({ successful: 0, failed: 0, pending: 0, notFound: 3 })

    await syncAndWait(host, ['transfers'])
    const after = valueOf(await host.call('bulk:status', { sendId: followed.id }))
    expect(after.counts).toEqual({ successful: 2, failed: 1, pending: 0, notFound: 0 })
    expect(after.statuses.map((s) => s?.status)).toEqual(['SUCCESSFUL', 'FAILED', 'SUCCESSFUL'])
    expect(after.lastSyncedAt).not.toBeNull()

    const status = valueOf(await host.call('bulk:saveStatus', { sendId: followed.id, variant: 'status' }))
    const text = readFileSync(status?.file as string, 'utf8')
    expect(text.startsWith('\uFEFF')).toBe(true)
    const table = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true }).data
    expect(table.map((r) => [r['account_number'], r['status']])).toEqual([
      ['0123456789', 'SUCCESSFUL'],
      ['2233445599', 'FAILED'],
      ['1234567890123', 'SUCCESSFUL']
    ])

    const retry = valueOf(await host.call('bulk:saveStatus', { sendId: followed.id, variant: 'retry' }))
    expect(retry?.rows).toBe(1)
    expect(readFileSync(retry?.file as string, 'utf8')).toBe(providerCsv('transfers', [PAYOUTS[1] as string[]]))
  })

  it('uploads a plan file, after which its references count as taken', async () => {
    const csv = providerCsv('plans', [['Gold Monthly', 'monthly', '5000', 'NGN', 'LL-GOLD-1', 'NGN:5000;GHS:45']])
    const sent = valueOf(await host.call('bulk:send', { kind: 'plans', csv, fileName: 'plans.csv' }))
    expect(sent).toMatchObject({ kind: 'plans', action: 'upload', transport: 'multipart', accepted: true })
    expect(valueOf(await host.call('bulk:context', undefined)).planReferences).toContain('LL-GOLD-1')
    const again = await host.call('bulk:check', { kind: 'plans', csv })
    expect(valueOf(again).errors.map((p) => `${p.row} ${p.column} ${p.code}`)).toEqual(['2 internalReference internal_reference_in_use'])
  })

  it('asks in a native dialog before a live profile sends, naming the rows and totals', async () => {
    const profile = valueOf(await host.call('profile:add', { name: 'Acme live', baseUrl: live.baseUrl, key: live.keys.live }))
    valueOf(await host.call('profile:select', { id: profile.id }))
    const csv = providerCsv('transfers', [PAYOUTS[0] as string[]])
    host.ui.confirmAnswer = false
    const refused = await host.call('bulk:send', { kind: 'transfers', csv, fileName: 'live.csv' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_confirmed' } })
    expect(host.ui.confirmations.at(-1)?.message).toBe(
      'Send 1 payout row(s) totalling NGN 5000.00 to the LIVE API of "Acme live" for validation?'
    )
    expect(valueOf(await host.call('bulk:history', undefined))).toEqual([])
    host.ui.confirmAnswer = true
    expect(valueOf(await host.call('bulk:send', { kind: 'transfers', csv, fileName: 'live.csv' }))).toMatchObject({ accepted: true })
  })
})
