// The recon:* calls through main's gate to the real host process: a statement chosen in the open dialog, previewed, imported and reconciled as jobs, decided, closed, exported.
import ExcelJS from 'exceljs'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobInfo } from '../../src/shared/ipc/contract'
import type { SearchResult } from '../../src/shared/search'
import { finishedJob, startTestHost, valueOf, type TestHost } from '../support/app-env'
import { CORPUS_PASSWORD, corpusPdf } from '../support/pdf-corpus'

let host: TestHost

const finished = (job: JobInfo): Promise<JobInfo> => finishedJob(host, job.id)

beforeAll(async () => {
  host = await startTestHost()
  const sync = await finished(valueOf(await host.call('sync:start', { resources: ['payments'] })) as JobInfo)
  expect(sync.state).toBe('succeeded')
})
afterAll(() => host.close())

describe('recon:* through the gate and the host', { timeout: 60_000 }, () => {
  it('previews, asks, imports, reconciles, decides, closes and exports', async () => {
    const found = valueOf(
      await host.call('search:query', { resource: 'payments', status: 'successful', currency: 'NGN', pageSize: 3 })
    ) as SearchResult
    const [a, b] = found.items
    expect(a && b).toBeTruthy()
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-recon-ipc-'))
    const statement = join(dir, 'bank.csv')
    const day = (iso: string | null): string => (iso ?? '').slice(0, 10)
    writeFileSync(
      statement,
      [
        'Value Date,Reference,Description,Amount',
        `${day(a?.date ?? null)},${a?.reference?.toLowerCase()},Card,${(a?.amountMinor ?? 0) / 100}`,
        `${day(b?.date ?? null)}, ${b?.reference} ,Transfer,${(b?.amountMinor ?? 0) / 100}`,
        `${day(b?.date ?? null)},,BANK CHARGE,-10.00`
      ].join('\n')
    )

    // Cancelled dialog: nothing happens.
    expect(valueOf(await host.call('recon:open', {}))).toBeNull()
    host.ui.openAnswer = statement
    const asked = valueOf(await host.call('recon:open', {}))
    expect(host.ui.opens.at(-1)).toMatchObject({
      extensions: ['csv', 'txt', 'tsv', 'xlsx', 'xls', 'pdf', 'sta', 'mt940', 'fin', 'xml', 'camt', 'ofx', 'qfx', 'qif']
    })
    expect(asked).toMatchObject({ name: 'bank.csv', rowCount: 0, questions: [expect.objectContaining({ field: 'defaultCurrency' })] })
    const preview = valueOf(await host.call('recon:preview', { token: asked?.token as string, mapping: { defaultCurrency: 'ngn' } }))
    expect(preview).toMatchObject({
      rowCount: 3,
      questions: [],
      dateForm: 'YYYY-MM-DD',
      mapping: { columns: { date: 'Value Date', reference: 'Reference', amount: 'Amount' } }
    })

    const imported = await finished(
      valueOf(await host.call('recon:import', { token: preview.token, mapping: { defaultCurrency: 'NGN' }, saveAs: 'Test bank' }))
    )
    expect(imported).toMatchObject({
      state: 'succeeded',
      kind: 'recon-import',
      result: { kind: 'recon-import', status: 'imported', rows: 3 }
    })
    const fileId = (imported.result as { fileId: string }).fileId
    expect(valueOf(await host.call('recon:files', undefined)).map((f) => f.id)).toContain(fileId)

    const from = [day(a?.date ?? null), day(b?.date ?? null)].sort()[0] as string
    const to = [day(a?.date ?? null), day(b?.date ?? null)].sort()[1] as string
    const session = valueOf(await host.call('recon:create', { name: 'Bank check', source: 'payments', from, to, fileIds: [fileId] }))
    expect(session).toMatchObject({ source: 'payments', files: [expect.objectContaining({ id: fileId })], lastRunAt: null })
    const run = await finished(valueOf(await host.call('recon:run', { sessionId: session.id })))
    expect(run).toMatchObject({
      state: 'succeeded',
      result: { kind: 'recon-run', counts: expect.objectContaining({ matched: 2, only_in_file: 1 }) }
    })
    const charge = valueOf(await host.call('recon:items', { sessionId: session.id, outcome: 'only_in_file' })).items[0]
    expect(charge?.file[0]).toMatchObject({ amountMinor: -1000, description: 'BANK CHARGE' })
    const noted = valueOf(
      await host.call('recon:decide', {
        sessionId: session.id,
        decision: { kind: 'note', itemKey: charge?.key as string, note: 'Card fee' }
      })
    )
    expect(noted).toMatchObject({ inPlace: true, item: { note: 'Card fee' }, session: { counts: expect.objectContaining({ matched: 2 }) } })
    expect(valueOf(await host.call('recon:items', { sessionId: session.id, outcome: 'only_in_file' })).items[0]).toMatchObject({
      note: 'Card fee'
    })

    const refused = await host.call('recon:decide', { sessionId: session.id, decision: { kind: 'delete', itemKey: 'x' } as never })
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    // Closing is a job (binding the evidence pack's files), with its progress file by file.
    const closing = valueOf(await host.call('recon:close', { sessionId: session.id }))
    expect(closing).toMatchObject({ kind: 'recon-close', title: `Closing "${session.name}"` })
    expect(await finished(closing as JobInfo)).toMatchObject({
      state: 'succeeded',
      result: { kind: 'recon-close', sessionId: session.id },
      progress: { phase: 'binding the evidence', step: 'settings.json', done: 4, total: 4 }
    })
    expect(valueOf(await host.call('recon:close', { sessionId: session.id }))).toBeNull()
    expect(
      await host.call('recon:decide', {
        sessionId: session.id,
        decision: { kind: 'resolve', itemKey: charge?.key as string, resolved: true }
      })
    ).toMatchObject({ ok: false, error: { code: 'session_closed' } })

    const summary = valueOf(await host.call('recon:summary', { sessionId: session.id }))
    expect(summary).toMatchObject({
      counts: expect.objectContaining({ matched: 2 }),
      currencies: [expect.objectContaining({ currency: 'NGN', unexplainedMinor: 0 })],
      closedAt: expect.any(String)
    })
    const exported = valueOf(await host.call('recon:export', { sessionId: session.id, format: 'xlsx' }))
    expect(exported.file && existsSync(exported.file)).toBe(true)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile(exported.file as string)
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Reconciliation', 'Reconciling items', 'Summary', 'Items'])
    const pdf = valueOf(await host.call('recon:export', { sessionId: session.id, format: 'pdf' }))
    expect(
      readFileSync(pdf.file as string)
        .subarray(0, 5)
        .toString('latin1')
    ).toBe('%PDF-')
    expect(valueOf(await host.call('recon:events', { sessionId: session.id })).map((e) => e.kind)).toEqual([
      'session_created',
      'run',
      'note',
      'close'
    ])
    expect(valueOf(await host.call('audit:verify', undefined))).toMatchObject({ ok: true, sessions: 1, events: 4 })

    // The same file again: the earlier import is named, nothing is stored twice.
    const again = valueOf(await host.call('recon:open', {}))
    expect(again?.sameFile?.id).toBe(fileId)
  })

  it("asks for a protected PDF statement's password, opens it with the right one, and never lets it out", async () => {
    const pdf = corpusPdf({ password: CORPUS_PASSWORD })
    const dropped = { name: 'march.pdf', base64: Buffer.from(pdf.bytes).toString('base64') }
    const asked = await host.call('recon:openDropped', dropped)
    expect(asked).toMatchObject({
      ok: false,
      error: { code: 'pdf_password_required', details: { token: expect.any(String), name: 'march.pdf' } }
    })
    const token = (asked as { error: { details: { token: string } } }).error.details.token
    const wrong = await host.call('recon:unlock', { token, password: 'not-it' })
    expect(wrong).toMatchObject({ ok: false, error: { code: 'pdf_password_wrong', details: { token } } })
    const preview = valueOf(await host.call('recon:unlock', { token, password: CORPUS_PASSWORD }))
    expect(preview).toMatchObject({ format: 'pdf', rowCount: pdf.lines.length, pageStarts: pdf.pageStarts, proof: { complete: true } })
    // The import job reads the file again with the password held beside it.
    const imported = await finished(valueOf(await host.call('recon:import', { token })))
    expect(imported).toMatchObject({ state: 'succeeded', result: { kind: 'recon-import', status: 'imported', rows: pdf.lines.length } })
    expect(JSON.stringify([asked, wrong, preview, imported, host.events])).not.toContain(CORPUS_PASSWORD)
    for (const file of readdirSync(host.config.paths.logs))
      expect(readFileSync(join(host.config.paths.logs, file), 'utf8')).not.toContain(CORPUS_PASSWORD)
  })
})
