// Sessions over a real cache: imports stored once, presets, decisions kept across runs and new files, the audit chain and its tampering, close and reopen, reports in CSV and XLSX.
import ExcelJS from 'exceljs'
import { lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { beforeEach, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { paymentRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import { deleteProfileData } from '../../src/main/profiles/removal'
import { RECON_PROFILE_TABLES } from '../../src/main/reconcile/sessions'
import { verifyAudit } from '../../src/main/reconcile/audit'
import { summaryRows, writeItemsCsv, writeSummaryCsv, writeXlsx } from '../../src/main/reconcile/report'
import { buildSummary, summaryOf, type ReportInput } from '../../src/main/reconcile/totals'
import { StatementReads } from '../../src/main/reconcile/statement-store'
import { ReconService } from '../../src/main/reconcile/service'
import type { ReconItem } from '../../src/shared/reconcile'

let db: Database.Database
let service: ReconService
let clock = Date.UTC(2026, 10, 1, 9)
const PROFILE = { name: 'Acme test', mode: 'test' }

const statement = (rows: string[]): Uint8Array => Buffer.from(['Date,Reference,Description,Debit,Credit', ...rows].join('\n'))
const base = ['01/10/2026,PAY-1,Card,,"1,000.00"', '02/10/2026,,TRANSFER FROM ADA OBI,,"2,500.00"', '13/10/2026,,BANK CHARGE,50.00,']

beforeEach(() => {
  db = openCache(':memory:')
  db.prepare(
    "insert into profiles (id, name, base_url, mode, created_at) values ('test', 'Acme test', null, 'test', '2026-01-01'), ('live', 'Acme live', 'https://x/v1', 'live', '2026-01-01')"
  ).run()
  const store = new CacheStore(db)
  const payment = (id: string, reference: string, amount: number, createdAt: string, extra: Record<string, unknown> = {}) =>
    paymentRow({
      id,
      reference,
      serviceReference: `SRV-${id}`,
      amount,
      currency: 'NGN',
      status: 'successful',
      channel: 'card',
      totalFees: 0,
      createdAt,
      ...extra
    })
  store.writePage('test', 'payments', [
    payment('id-1', 'PAY-1', 1000, '2026-10-01T10:00:00Z'),
    payment('id-2', 'PAY-2', 2500, '2026-10-02T08:00:00Z', {
      bankDetails: { accountName: 'Ada Obi', accountNumber: '0123', bankName: 'B' }
    }),
    payment('id-3', 'PAY-3', 400, '2026-10-05T08:00:00Z'),
    payment('id-4', 'PAY-4', 600, '2026-10-05T09:00:00Z')
  ])
  clock = Date.UTC(2026, 10, 1, 9)
  service = new ReconService(db, { now: () => new Date((clock += 1000)), user: 'ada' })
})

async function importBase(rows = base, name = 'oct.csv') {
  const outcome = await service.importStatement({ profileId: 'test', name, bytes: statement(rows), mapping: { defaultCurrency: 'NGN' } })
  if (outcome.status !== 'imported') throw new Error(`not imported: ${outcome.status}`)
  return outcome.file
}

function newSession(fileIds: string[]) {
  return service.createSession({
    profileId: 'test',
    name: 'October',
    source: 'payments',
    from: '2026-10-01',
    to: '2026-10-31',
    timeZone: 'Africa/Lagos',
    fileIds
  })
}

describe('statements in a cache', () => {
  it('stores a file with its SHA-256 once, and asks before storing the same file or the same rows again', async () => {
    const file = await importBase()
    expect(file).toMatchObject({ rows: 3, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), importedBy: 'ada', dateForm: 'DD/MM/YYYY' })
    const again = await service.importStatement({ profileId: 'test', name: 'oct copy.csv', bytes: statement(base) })
    expect(again).toMatchObject({ status: 'same-file', existing: { id: file.id } })
    const overlap = await service.importStatement({
      profileId: 'test',
      name: 'oct-2.csv',
      bytes: statement([base[1] as string, '20/10/2026,PAY-9,New,,"9.00"']),
      mapping: { defaultCurrency: 'NGN' }
    })
    expect(overlap).toMatchObject({ status: 'same-rows', sameRows: 1 })
    const skipped = await service.importStatement({
      profileId: 'test',
      name: 'oct-2.csv',
      bytes: statement([base[1] as string, '20/10/2026,PAY-9,New,,"9.00"']),
      mapping: { defaultCurrency: 'NGN' },
      ifSameRows: 'skip'
    })
    expect(skipped).toMatchObject({ status: 'imported', skippedSameRows: 1, file: { rows: 1 } })
    // Another profile sees none of it.
    expect(
      (await service.importStatement({ profileId: 'live', name: 'oct.csv', bytes: statement(base), mapping: { defaultCurrency: 'NGN' } }))
        .status
    ).toBe('imported')
  })

  it('reapplies a saved mapping preset when a file with the same headers comes in', async () => {
    const odd = Buffer.from('When,Ref,What,Sum\n2026-10-01,PAY-1,x,"1,000.00"\n')
    const first = await service.importStatement({ profileId: 'test', name: 'a.csv', bytes: odd, previewOnly: true })
    expect(first.status).toBe('questions')
    const answered = await service.importStatement({
      profileId: 'test',
      name: 'a.csv',
      bytes: odd,
      mapping: { columns: { date: 'When', reference: 'Ref', amount: 'Sum', description: 'What' }, defaultCurrency: 'NGN' }
    })
    expect(answered.status).toBe('imported')
    service.savePreset('Ledger export', answered.parsed.headerSignature, answered.parsed.mapping)
    const next = await service.importStatement({
      profileId: 'test',
      name: 'b.csv',
      bytes: Buffer.from('When,Ref,What,Sum\n2026-10-02,PAY-2,y,"2,500.00"\n')
    })
    expect(next).toMatchObject({ status: 'imported', presetApplied: 'Ledger export', file: { rows: 1 } })
  })

  it('reads a held file once per mapping: its preview and its import share the reading, and so does a preset', async () => {
    const bytes = statement(base)
    const reads = new StatementReads()
    const request = { profileId: 'test', name: 'oct.csv', bytes, mapping: { defaultCurrency: 'NGN' }, reads }
    const preview = await service.importStatement({ ...request, previewOnly: true })
    expect(preview.status).toBe('preview')
    expect(reads.parses).toBe(1)
    const imported = await service.importStatement(request)
    expect(imported).toMatchObject({ status: 'imported', file: { rows: 3 } })
    expect(reads.parses).toBe(1)
    // The stored rows are the ones a reading of its own gives.
    const alone = await service.importStatement({ ...request, reads: new StatementReads(), ifSameFile: 'import-again', ifSameRows: 'keep' })
    expect(alone.statements.map((s) => s.rows.all())).toEqual(imported.statements.map((s) => s.rows.all()))
    // Another mapping is another reading; asked again, it is not read again.
    await service.importStatement({ ...request, mapping: { defaultCurrency: 'NGN', dateOrder: 'dmy' }, previewOnly: true })
    await service.importStatement({ ...request, mapping: { defaultCurrency: 'NGN', dateOrder: 'dmy' }, previewOnly: true })
    expect(reads.parses).toBe(2)
    // Only the latest readings are kept (each can be hundreds of MB): a third mapping lets the oldest go.
    await service.importStatement({ ...request, mapping: { defaultCurrency: 'NGN', dateOrder: 'ymd' }, previewOnly: true })
    await service.importStatement({ ...request, previewOnly: true })
    expect(reads.parses).toBe(4)
    // A file with a saved preset: the first reading and the preset's, each once, for its preview and its import.
    const odd = (n: number): Buffer => Buffer.from(`When,Ref,What,Sum\n2026-10-0${n},PAY-${n},x,"1,000.00"\n`)
    const answered = await service.importStatement({
      profileId: 'test',
      name: 'a.csv',
      bytes: odd(1),
      mapping: { columns: { date: 'When', reference: 'Ref', amount: 'Sum', description: 'What' }, defaultCurrency: 'NGN' }
    })
    service.savePreset('Ledger export', answered.parsed.headerSignature, answered.parsed.mapping)
    const presetReads = new StatementReads()
    const held = { profileId: 'test', name: 'b.csv', bytes: odd(2), reads: presetReads }
    expect(await service.importStatement({ ...held, previewOnly: true })).toMatchObject({
      status: 'preview',
      presetApplied: 'Ledger export'
    })
    expect(await service.importStatement(held)).toMatchObject({ status: 'imported', presetApplied: 'Ledger export' })
    expect(presetReads.parses).toBe(2)
  })

  it('offers a statement without currencies the currency of the records it names, from the import itself, on a copy of its reading', async () => {
    const reads = new StatementReads()
    const request = { profileId: 'test', name: 'oct.csv', bytes: statement(base), reads, previewOnly: true }
    const asked = await service.importStatement(request)
    expect(asked.status).toBe('questions')
    expect(asked.parsed.questions).toEqual([expect.objectContaining({ field: 'defaultCurrency', choices: ['NGN'] })])
    // The reading kept for the file still asks, as read: asked again, the offer is made again and nothing is read twice.
    const kept = await reads.read(request.bytes, request.name, {}, {})
    expect(kept[0]?.questions).toEqual([expect.objectContaining({ field: 'defaultCurrency', choices: [] })])
    expect((await service.importStatement(request)).parsed.questions[0]?.choices).toEqual(['NGN'])
    expect(reads.parses).toBe(1)
    // Records in two currencies, none of them named by the file: no offer, the question stays open.
    db.prepare("update payments set currency = 'GHS' where id = 'id-4'").run()
    const open = await service.importStatement({
      ...request,
      bytes: statement(['13/10/2026,,Card,,"1,000.00"']),
      reads: new StatementReads()
    })
    expect(open.parsed.questions).toEqual([expect.objectContaining({ field: 'defaultCurrency', choices: [] })])
  })
})

describe('a reconciliation session', () => {
  it('keeps test and live apart and checks its period and settings', async () => {
    const file = await importBase()
    expect(() =>
      service.createSession({
        profileId: 'live',
        name: 'x',
        source: 'payments',
        from: '2026-10-01',
        to: '2026-10-31',
        timeZone: 'UTC',
        fileIds: [file.id]
      })
    ).toThrow(/another profile; test and live never mix/)
    expect(() =>
      service.createSession({
        profileId: 'test',
        name: 'x',
        source: 'payments',
        from: '2026-10-31',
        to: '2026-10-01',
        timeZone: 'UTC',
        fileIds: []
      })
    ).toThrow(/period/)
    expect(() =>
      service.createSession({
        profileId: 'test',
        name: 'x',
        source: 'payments',
        from: '2026-10-01',
        to: '2026-10-31',
        timeZone: 'UTC',
        fileIds: [],
        settings: { amountTolerance: '-1' }
      })
    ).toThrow(/tolerance/)
  })

  it('runs, takes decisions as chained events, keeps them across a new file and a re-run, and never re-suggests a rejected pair', async () => {
    const file = await importBase()
    const session = newSession([file.id])
    const run = await service.run(session.id)
    expect(run.counts).toMatchObject({ matched: 1, suggested: 1, only_in_provider: 2, only_in_file: 1 })
    const suggestion = service.items(session.id, { outcome: 'suggested' }).items[0]
    expect(suggestion?.provider[0]?.id).toBe('id-2')
    await service.decide(session.id, { kind: 'accept', itemKey: suggestion?.key as string })
    const accepted = service.item(session.id, suggestion?.key as string)
    expect(accepted).toMatchObject({ outcome: 'matched', decision: 'accepted', decidedBy: 'ada' })

    // A manual N:1: the two small payments were one deposit in a second file.
    const second = await importBase(['2026-10-05,,DEPOSIT,,"1,000.00"'], 'oct-b.csv')
    service.addFiles(session.id, [second.id])
    await service.run(session.id)
    const deposit = service.items(session.id).items.find((i) => i.file.some((f) => f.description === 'DEPOSIT'))
    // The sum of PAY-3 and PAY-4 is offered as a group; reject it and match by hand instead.
    expect(deposit).toMatchObject({ outcome: 'suggested' })
    await service.decide(session.id, { kind: 'reject', itemKey: deposit?.key as string })
    expect(service.items(session.id, { outcome: 'suggested' }).total).toBe(0)
    await service.decide(session.id, { kind: 'match', providerIds: ['id-3', 'id-4'], fileIds: [deposit?.file[0]?.id as string] })
    const charge = service.items(session.id, { outcome: 'only_in_file' }).items[0]
    await service.decide(session.id, { kind: 'note', itemKey: charge?.key as string, note: 'Monthly SMS alerts' })
    await service.decide(session.id, { kind: 'reason', itemKey: charge?.key as string, code: 'bank_charge' })
    await service.decide(session.id, { kind: 'resolve', itemKey: charge?.key as string, resolved: true })
    await service.decide(session.id, {
      kind: 'adjust',
      currency: 'NGN',
      amount: '-50.00',
      reason: 'Book SMS charges to bank fees',
      itemKey: charge?.key as string
    })

    const rerun = await service.run(session.id)
    expect(rerun.counts).toMatchObject({ matched: 3, only_in_file: 1, suggested: 0, ambiguous: 0 })
    const manual = service.items(session.id).items.find((i) => i.decision === 'manual')
    expect(manual?.provider.map((p) => p.id)).toEqual(['id-3', 'id-4'])
    expect(service.item(session.id, charge?.key as string)).toMatchObject({
      note: 'Monthly SMS alerts',
      reasonCode: 'bank_charge',
      resolved: true
    })
    expect(service.fold(session.id).adjustments).toEqual([expect.objectContaining({ amountMinor: -5000, currency: 'NGN' })])
    expect(verifyAudit(db)).toMatchObject({ ok: true, sessions: 1 })
    expect(service.events(session.id).map((e) => e.kind)).toEqual([
      'session_created',
      'run',
      'accept',
      'files_added',
      'run',
      // The rejection and the match by hand are applied in place: the open pool is matched again, not the session.
      'reject',
      'match',
      'note',
      'reason',
      'resolve',
      'adjust',
      'run'
    ])
  })

  it('undoes the last decision, then the one before it: the trail keeps both, the result goes back', async () => {
    const file = await importBase()
    const session = newSession([file.id])
    await service.run(session.id)
    const suggestion = service.items(session.id, { outcome: 'suggested' }).items[0] as ReconItem
    const charge = service.items(session.id, { outcome: 'only_in_file' }).items[0] as ReconItem
    await expect(service.decide(session.id, { kind: 'undo' })).rejects.toMatchObject({ code: 'nothing_to_undo' })
    await service.decide(session.id, { kind: 'accept', itemKey: suggestion.key })
    await service.decide(session.id, { kind: 'note', itemKey: charge.key, note: 'SMS alerts' })
    expect(service.item(session.id, charge.key)?.note).toBe('SMS alerts')
    await service.decide(session.id, { kind: 'undo' })
    expect(service.item(session.id, charge.key)?.note).toBeNull()
    expect(service.item(session.id, suggestion.key)).toMatchObject({ outcome: 'matched', decision: 'accepted' })
    // The next undo takes back the accept: the suggestion is offered again (not dismissed, as an unmatch would).
    await service.decide(session.id, { kind: 'undo' })
    expect(service.item(session.id, suggestion.key)).toMatchObject({ outcome: 'suggested', decision: null })
    // A rejection undone comes back too.
    await service.decide(session.id, { kind: 'reject', itemKey: suggestion.key })
    expect(service.items(session.id, { outcome: 'suggested' }).total).toBe(0)
    await service.decide(session.id, { kind: 'undo' })
    expect(service.items(session.id, { outcome: 'suggested' }).total).toBe(1)
    await expect(service.decide(session.id, { kind: 'undo' })).rejects.toMatchObject({ code: 'nothing_to_undo' })
    const undos = service.events(session.id).filter((e) => e.kind === 'undo')
    expect(undos.map((e) => e.payload['kind'])).toEqual(['note', 'accept', 'reject'])
    expect(verifyAudit(db)).toMatchObject({ ok: true })
  })

  it('filters items by outcome, currency, day, amount (exact, either side) and text, all at once', async () => {
    const file = await importBase([...base, '14/10/2026,,50%_OFF PROMO,,"600.00"'])
    const session = newSession([file.id])
    await service.run(session.id)
    const keys = (filter: Parameters<ReconService['items']>[1]): string[] =>
      service
        .items(session.id, filter)
        .items.map((i) => [...i.provider.map((p) => p.reference), ...i.file.map((f) => f.description)].join('+'))
    expect(service.items(session.id).total).toBe(6)
    expect(keys({ text: 'ada obi' })).toEqual(['PAY-2+TRANSFER FROM ADA OBI'])
    // % and _ are what the user typed, not wildcards.
    expect(keys({ text: '50%_off' })).toEqual(['50%_OFF PROMO'])
    expect(keys({ text: '%' })).toEqual(['50%_OFF PROMO'])
    expect(keys({ from: '2026-10-13', to: '2026-10-13' })).toEqual(['BANK CHARGE'])
    expect(keys({ minAmount: '600', maxAmount: '1000' })).toEqual(['PAY-1+Card', 'PAY-4', '50%_OFF PROMO'])
    expect(keys({ minAmount: '600.01' }).sort()).toEqual(['PAY-2+TRANSFER FROM ADA OBI', 'PAY-1+Card'].sort())
    expect(keys({ outcome: 'only_in_provider', maxAmount: '500' })).toEqual(['PAY-3'])
    expect(keys({ currency: 'GHS' })).toEqual([])
    expect(service.items(session.id, { currency: 'ngn', text: 'pay-', offset: 1, limit: 1 })).toMatchObject({
      total: 4,
      items: [expect.anything()]
    })
    expect(() => service.items(session.id, { minAmount: '1.234' })).toThrow(/Smallest amount "1.234"/)
  })

  it('applies notes, reasons, resolves, accepts and adjustments in place, exactly as a run would', async () => {
    const file = await importBase([...base, '05/10/2026,,DEPOSIT,,"1,000.00"'])
    const session = newSession([file.id])
    await service.run(session.id)
    const all = (): unknown[] => [...service.allItems(session.id)]
    const suggestions = service.items(session.id, { outcome: 'suggested' }).items
    expect(suggestions.map((i) => i.provider.length).sort()).toEqual([1, 2])
    const charge = service.items(session.id, { outcome: 'only_in_file' }).items[0] as ReconItem
    const runs = (): number => service.events(session.id).filter((e) => e.kind === 'run').length
    const before = runs()
    for (const decision of [
      { kind: 'note', itemKey: charge.key, note: 'SMS alerts' },
      { kind: 'reason', itemKey: charge.key, code: 'bank charge' },
      { kind: 'resolve', itemKey: charge.key, resolved: true },
      { kind: 'accept', itemKey: (suggestions[0] as ReconItem).key },
      { kind: 'accept', itemKey: (suggestions[1] as ReconItem).key },
      { kind: 'adjust', currency: 'NGN', amount: '-50.00', reason: 'Book the charge to bank fees', itemKey: charge.key }
    ] as const) {
      expect(await service.decide(session.id, decision)).toMatchObject({ inPlace: true })
    }
    expect(runs()).toBe(before)
    expect(service.item(session.id, charge.key)).toMatchObject({
      note: 'SMS alerts',
      reasonCode: 'bank charge',
      resolved: true,
      decidedBy: 'ada'
    })
    expect(service.items(session.id, { text: 'sms alerts' }).total).toBe(1)
    const inPlace = { items: all(), totals: service.totals(session.id), summary: buildSummary(reportInput(session.id)) }
    // A full run from the audit trail gives the very same items and totals.
    await service.run(session.id)
    expect(all()).toEqual(inPlace.items)
    expect(service.totals(session.id)).toEqual(inPlace.totals)
    expect(summaryOf(service.session(session.id), reportInput(session.id).profile, service.totals(session.id))).toEqual(inPlace.summary)
    expect(inPlace.totals.counts).toMatchObject({ suggested: 0, matched: 3 })
    expect(inPlace.totals.currencies[0]?.adjustmentsMinor).toBe(-5000)
    // Unmatching the accepted group frees its members: the open pool is matched again in place, as a run would match it.
    const group = service.items(session.id, { outcome: 'matched' }).items.find((i) => i.provider.length === 2) as ReconItem
    expect(await service.decide(session.id, { kind: 'unmatch', itemKey: group.key })).toMatchObject({ inPlace: true, item: null })
    expect(runs()).toBe(before + 1)
    const unmatched = { items: all(), totals: service.totals(session.id) }
    expect(unmatched.totals.counts).toMatchObject({ matched: 2, only_in_provider: 2, only_in_file: 2 })
    await service.run(session.id)
    expect(all()).toEqual(unmatched.items)
    expect(service.totals(session.id)).toEqual(unmatched.totals)
    expect(verifyAudit(db)).toMatchObject({ ok: true })
  })

  it('reads records as far outside the period as the window reaches: lines on the 1st settle the 30th and 29th, the rest are left out', async () => {
    const outside = (id: string, reference: string, amount: number, createdAt: string, name: string, currency = 'NGN') =>
      paymentRow({
        id,
        reference,
        serviceReference: `SRV-${id}`,
        amount,
        currency,
        status: 'successful',
        channel: 'card',
        totalFees: 0,
        createdAt,
        bankDetails: { accountName: name, accountNumber: '9', bankName: 'B' }
      })
    new CacheStore(db).writePage('test', 'payments', [
      outside('id-0', 'PAY-0', 700, '2026-09-30T12:00:00Z', 'Bola Ade'),
      outside('id-8', 'PAY-8', 300, '2026-09-29T12:00:00Z', 'Chidi Eze'),
      // Beyond the five days a line may trail its record: not read.
      outside('id-9', 'PAY-9', 900, '2026-09-20T12:00:00Z', 'Dayo Ojo'),
      // Within the two days a line may lead its record, and on no line: read, then left out.
      outside('id-n', 'PAY-N', 800, '2026-11-01T10:00:00Z', 'Ebere Nwa'),
      // In a currency the statement does not hold: the period's one is counted in the note, the one from outside it is not.
      outside('id-g', 'PAY-G', 50, '2026-10-03T10:00:00Z', 'Fola Ige', 'GHS'),
      outside('id-h', 'PAY-H', 60, '2026-09-30T10:00:00Z', 'Fola Ige', 'GHS')
    ])
    const file = await importBase([...base, '01/10/2026,PAY-0,Card,,700.00', '01/10/2026,,TRANSFER FROM CHIDI EZE,,300.00'])
    const session = newSession([file.id])
    const run = await service.run(session.id)
    expect(run.leftOutOutsidePeriod).toBe(1)
    expect(run.notes).toContain('left out, in currencies the statements do not hold: 1 GHS')
    expect(run.counts).toMatchObject({ matched: 2, suggested: 2, only_in_provider: 2, only_in_file: 1 })
    const settled = service.items(session.id).items.find((i) => i.provider.some((p) => p.id === 'id-0'))
    expect(settled).toMatchObject({
      outcome: 'matched',
      reasons: expect.arrayContaining([
        "the provider's record PAY-0 is dated 2026-09-30, outside the period: a line in the period settles it"
      ])
    })
    expect(service.items(session.id).items.some((i) => i.provider.some((p) => p.id === 'id-9' || p.id === 'id-n'))).toBe(false)
    // Accepting the suggestion in place keeps the reason, as a run does.
    const suggestion = service
      .items(session.id, { outcome: 'suggested' })
      .items.find((i) => i.provider.some((p) => p.id === 'id-8')) as ReconItem
    expect(await service.decide(session.id, { kind: 'accept', itemKey: suggestion.key })).toMatchObject({ inPlace: true })
    const inPlace = service.item(session.id, suggestion.key)
    expect(inPlace?.reasons.at(-1)).toBe(
      "the provider's record PAY-8 is dated 2026-09-29, outside the period: a line in the period settles it"
    )
    await service.run(session.id)
    expect(service.item(session.id, suggestion.key)).toEqual(inPlace)
  })

  it('accepts every suggestion above a score in a filter, after saying how many and their totals; groups have no score and stay', async () => {
    const file = await importBase([...base, '05/10/2026,,DEPOSIT,,"1,000.00"'])
    const session = newSession([file.id])
    await service.run(session.id)
    expect(service.items(session.id, { outcome: 'suggested' }).total).toBe(2)
    const score = (service.items(session.id, { outcome: 'suggested' }).items.find((i) => i.score !== null) as ReconItem).score as number
    expect(service.previewAcceptAll(session.id, {}, score + 0.1)).toEqual({ count: 0, groups: 0, totals: [] })
    expect(service.previewAcceptAll(session.id, { text: 'nobody' }, 0)).toEqual({ count: 0, groups: 0, totals: [] })
    expect(service.previewAcceptAll(session.id, {}, score)).toEqual({
      count: 1,
      groups: 0,
      totals: [{ currency: 'NGN', fileMinor: 250_000, providerMinor: 250_000 }]
    })
    expect(await service.acceptAll(session.id, {}, score)).toMatchObject({ accepted: 1 })
    expect(service.items(session.id, { outcome: 'suggested' }).items.map((i) => i.provider.length)).toEqual([2])
    expect(service.events(session.id).filter((e) => e.kind === 'accept')).toHaveLength(1)
    // Nothing left to accept: a second run of it does nothing.
    expect(await service.acceptAll(session.id, {}, 0)).toMatchObject({ accepted: 0 })
    // Asked for them (the CLI's accept-all does), group suggestions are accepted too.
    expect(service.previewAcceptAll(session.id, {}, 0, true)).toMatchObject({ count: 1, groups: 1 })
    expect(await service.acceptAll(session.id, {}, 0, true)).toMatchObject({ accepted: 1 })
    expect(service.items(session.id, { outcome: 'suggested' }).total).toBe(0)
  })

  it('finds one edited, removed or reordered audit row', async () => {
    const session = newSession([(await importBase()).id])
    await service.run(session.id)
    const key = service.items(session.id, { outcome: 'suggested' }).items[0]?.key as string
    await service.decide(session.id, { kind: 'accept', itemKey: key })
    expect(verifyAudit(db).ok).toBe(true)
    expect(() => db.prepare("update recon_events set user = 'mallory' where seq = 3").run()).toThrow(/append-only/)
    // Someone with the database file drops the guard and edits one decision.
    db.exec('DROP TRIGGER recon_events_append_only')
    db.prepare("update recon_events set user = 'mallory' where session_id = ? and seq = 3").run(session.id)
    const edited = verifyAudit(db)
    expect(edited.ok).toBe(false)
    expect(edited.problems).toEqual([
      expect.objectContaining({ seq: 3, message: expect.stringMatching(/changed after it was written \(accept .* by mallory\)/) })
    ])
    db.prepare("update recon_events set user = 'ada' where session_id = ? and seq = 3").run(session.id)
    expect(verifyAudit(db).ok).toBe(true)
    db.prepare('delete from recon_events where session_id = ? and seq = (select max(seq) from recon_events where session_id = ?)').run(
      session.id,
      session.id
    )
    expect(verifyAudit(db).problems[0]?.message).toMatch(/events were removed or added/)
  })

  it('locks a closed session; reopening needs a reason and the changes after it are the discrepancy log', async () => {
    const session = newSession([(await importBase()).id])
    await expect(service.close(session.id, PROFILE)).rejects.toThrow(/Run the session/)
    await service.run(session.id)
    const closed = await service.close(session.id, PROFILE)
    expect(closed).toMatchObject({ closedBy: 'ada', closedAt: expect.any(String) })
    const key = service.items(session.id, { outcome: 'suggested' }).items[0]?.key as string
    await expect(service.decide(session.id, { kind: 'accept', itemKey: key })).rejects.toThrow(/closed by ada .* reopen it/)
    await expect(service.run(session.id)).rejects.toThrow(/closed/)
    expect(() => service.reopen(session.id, '  ')).toThrow(/needs a reason/)
    service.reopen(session.id, 'Bank sent a corrected statement')
    await service.decide(session.id, { kind: 'accept', itemKey: key })
    await service.close(session.id, PROFILE)
    const input = reportInput(session.id)
    const rows = summaryRows(buildSummary(input), input)
    const log = rows.filter((r) => r[0]?.kind === 'text' && r[0].value === 'discrepancy_log').map((r) => (r[1] as { value: string }).value)
    expect(log).toEqual(['reopen', 'accept', 'close'])
  })

  it('writes the reconciled CSV, the summary CSV and one XLSX workbook that agree', async () => {
    const session = newSession([(await importBase()).id])
    await service.run(session.id)
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-recon-'))
    const input = reportInput(session.id)
    const summary = buildSummary(input)
    expect(summary.currencies).toEqual([
      expect.objectContaining({ currency: 'NGN', providerTotalMinor: 450_000, fileTotalMinor: 345_000, unexplainedMinor: 0 })
    ])
    // A symlink planted where the report goes is replaced, never written through.
    writeFileSync(join(dir, 'victim.txt'), 'precious')
    symlinkSync(join(dir, 'victim.txt'), join(dir, 'items.csv'))
    expect((await writeItemsCsv(join(dir, 'items.csv'), input)).rows).toBe(5)
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('precious')
    expect(lstatSync(join(dir, 'items.csv')).isSymbolicLink()).toBe(false)
    await writeSummaryCsv(join(dir, 'summary.csv'), summary, input)
    await writeXlsx(join(dir, 'report.xlsx'), summary, input)
    const items = readFileSync(join(dir, 'items.csv'), 'utf8')
    expect(items.startsWith('\uFEFF"outcome_in_words","difference","score"')).toBe(true)
    expect(items).toMatch(/"Matched",0\.00,,"the line's reference is the provider's reference; same amount",/)
    expect(items.split('\r\n').filter(Boolean)).toHaveLength(6)
    const summaryCsv = readFileSync(join(dir, 'summary.csv'), 'utf8')
    expect(summaryCsv).toMatch(/"foots","difference not accounted for by outcomes","NGN",,,,,0\.00,/)
    expect(summaryCsv).toMatch(/"file","oct\.csv",,,3,,,,"=""[0-9a-f]{64}"""/)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile(join(dir, 'report.xlsx'))
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Reconciliation', 'Reconciling items', 'Summary', 'Items'])
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([])
    const sheet = workbook.getWorksheet('Items') as ExcelJS.Worksheet
    expect(sheet.rowCount).toBe(6)
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    const row = sheet.getRow(2)
    const cell = (name: string): ExcelJS.Cell => row.getCell(header.indexOf(name) + 1)
    expect(typeof cell('Provider amount').value).toBe('number')
    expect(cell('Provider amount').numFmt).toBe('#,##0.00')
    expect(typeof cell('Item key').value).toBe('string')
    // Days are date cells a spreadsheet can sort and filter by.
    expect(cell('Provider date').value).toEqual(new Date('2026-10-01T00:00:00Z'))
    expect(cell('Provider date').numFmt).toBe('yyyy-mm-dd')
    // Each line is named as the user finds it: the file and its line number (a number).
    expect(cell('Statement').value).toBe('oct.csv')
    expect(cell('Line').value).toEqual(expect.any(Number))
    expect(cell('Item key').numFmt).toBe('@')
  })
})

describe('a removed profile', () => {
  it('takes its statements, sessions, results and audit events with it', async () => {
    const session = newSession([(await importBase()).id])
    await service.run(session.id)
    db.prepare("update profiles set removing = 1 where id = 'test'").run()
    await deleteProfileData(db, 'test', { domainTables: RECON_PROFILE_TABLES })
    for (const table of ['recon_sessions', 'recon_files', 'recon_file_rows', 'recon_items', 'recon_events', 'recon_session_files']) {
      expect((db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n, table).toBe(0)
    }
  })
})

function reportInput(sessionId: string): ReportInput {
  return service.reportInput(sessionId, { name: 'Acme test', mode: 'test' })
}
