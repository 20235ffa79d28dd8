// Enabled rules in a run: the first rule in the order shown that holds for an open line decides it, as an audit event naming the rule and its version; a pairing rule pairs the line with the one record it names by the customer's name; a run again decides nothing twice; a rule's decision taken back is never made again; a rule not enabled does nothing; a line the user opens again is decided as a run would.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { PoolRuns } from '../../src/main/reconcile/pool-run'
import { RuleStore } from '../../src/main/reconcile/rules/store'
import type { ReconItem } from '../../src/shared/reconcile'
import type { Rule } from '../../src/shared/rules'
import { scenarioService, scenarioSession, sessionShown } from '../support/recon-session'

const PAIR_NICKNAME: Rule = {
  name: 'transfers-by-name',
  match: 'all',
  conditions: [{ field: 'description', operator: 'starts_with', value: 'TRF FROM' }],
  action: { type: 'pair', with: 'customer', pattern: 'TRF FROM (.+)$' }
}
const SMS: Rule = {
  name: 'sms-alert-charges',
  match: 'all',
  conditions: [
    { field: 'description', operator: 'contains', value: 'SMS ALERT' },
    { field: 'amount', operator: 'sign', value: 'debit' }
  ],
  action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
}

const CSV = [
  'Account number,0123456789',
  'Currency,NGN',
  'Opening balance,0.00',
  'Date,Reference,Description,Amount',
  '2026-10-10,PAY-0001,CARD SETTLEMENT,100.00',
  '2026-10-14,,TRF FROM ADAEZE OKAFOR,250.00',
  '2026-10-20,,TRF FROM SOMEONE ELSE,75.00',
  '2026-10-28,,SMS ALERT CHARGES OCT,-52.50',
  'Closing balance,372.50'
].join('\n')

/** A cache of two payments, the second Adaeze Okafor's, with the pairing and the SMS rules saved (not enabled). */
function adaezeAndCharges(prefix: string): {
  service: ReturnType<typeof scenarioService>
  db: ReturnType<typeof openCache>
  rules: RuleStore
} {
  const file = join(mkdtempSync(join(tmpdir(), prefix)), 'cache.sqlite')
  const service = scenarioService(
    [
      { n: 1, amount: 100, day: '2026-10-10' },
      { n: 2, amount: 250, day: '2026-10-03' }
    ],
    file
  )
  const db = openCache(file)
  db.prepare("update payments set customer_name = 'Adaeze Okafor', customer_email = 'ada@example.com' where id = 'id-2'").run()
  const rules = new RuleStore(db, { user: 'ada' })
  rules.save('test', PAIR_NICKNAME)
  rules.save('test', SMS)
  return { service, db, rules }
}

describe('enabled rules in a run', () => {
  it('decide open lines in the order shown, audited with their version, once, and never again once taken back', async () => {
    const { service, db, rules } = adaezeAndCharges('ledgerline-rule-runs-')
    rules.save('test', { ...SMS, conditions: [SMS.conditions[0] as Rule['conditions'][number]] })

    const imported = await service.importStatement({ profileId: 'test', name: 'october.csv', bytes: Buffer.from(CSV), mapping: {} })
    if (imported.status !== 'imported') throw new Error(imported.status)
    const session = service.createSession({
      profileId: 'test',
      name: 'October',
      source: 'payments',
      from: '2026-10-01',
      to: '2026-10-31',
      timeZone: 'UTC',
      fileIds: [imported.file.id]
    })
    // Not enabled: nothing is decided by a rule.
    await service.run(session.id)
    expect(service.events(session.id).filter((e) => e.kind === 'rule')).toEqual([])

    rules.setEnabled('test', 'transfers-by-name', true)
    rules.setEnabled('test', 'sms-alert-charges', true)
    await service.run(session.id)
    const applied = service.events(session.id).filter((e) => e.kind === 'rule')
    expect(applied.map((e) => e.payload)).toEqual([
      expect.objectContaining({ name: 'transfers-by-name', version: 1, action: 'pair', providerIds: ['id-2'] }),
      expect.objectContaining({ name: 'sms-alert-charges', version: 2, action: 'classify', reasonCode: 'bank_charge' })
    ])
    const items = [...service.allItems(session.id)]
    const paired = items.find((i) => i.provider.some((p) => p.id === 'id-2'))
    expect(paired).toMatchObject({ outcome: 'matched', decision: 'manual', decidedBy: 'rule "transfers-by-name" (version 1)' })
    expect(paired?.file.map((f) => f.description)).toEqual(['TRF FROM ADAEZE OKAFOR'])
    // The rule's pairing, not the user's by hand.
    expect(paired?.reasons).toContain('decided by rule "transfers-by-name" (version 1), an enabled rule')
    expect(paired?.reasons).not.toContain('matched by hand')
    const charge = items.find((i) => i.file.some((f) => f.description === 'SMS ALERT CHARGES OCT'))
    expect(charge).toMatchObject({ resolved: true, reasonCode: 'bank_charge', decidedBy: 'rule "sms-alert-charges" (version 2)' })
    expect(charge?.reasons).toContain('decided by rule "sms-alert-charges" (version 2), an enabled rule')
    // The line naming nobody the provider knows stays open for the user.
    expect(items.find((i) => i.file.some((f) => f.description === 'TRF FROM SOMEONE ELSE'))).toMatchObject({
      resolved: false,
      decision: null
    })

    // A run again decides nothing twice, and stores the same items.
    await service.run(session.id)
    expect(service.events(session.id).filter((e) => e.kind === 'rule')).toHaveLength(2)
    expect([...service.allItems(session.id)]).toEqual(items)

    // The user takes the rule's pairing back: the line is open again and no rule pairs it again.
    await service.decide(session.id, { kind: 'unmatch', itemKey: paired?.key as string })
    expect(service.events(session.id).filter((e) => e.kind === 'rule')).toHaveLength(2)
    const after = [...service.allItems(session.id)].find((i) => i.file.some((f) => f.description === 'TRF FROM ADAEZE OKAFOR'))
    expect(after?.decision).toBeNull()
    expect(after?.provider.map((p) => p.id) ?? []).not.toContain('id-2')
    db.close()
  })

  it("take a rule's decision back with undo in place, as a run makes it: its classification, then its pairing; neither made again", async () => {
    const { service, db, rules } = adaezeAndCharges('ledgerline-rule-undone-')
    rules.setEnabled('test', 'transfers-by-name', true)
    rules.setEnabled('test', 'sms-alert-charges', true)
    const session = await scenarioSession(service, CSV, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    const lineOf = (description: string): ReconItem | undefined =>
      [...service.allItems(session.id)].find((i) => i.file.some((f) => f.description === description))
    expect(lineOf('SMS ALERT CHARGES OCT')).toMatchObject({ resolved: true, reasonCode: 'bank_charge' })
    expect(lineOf('TRF FROM ADAEZE OKAFOR')).toMatchObject({ outcome: 'matched', decision: 'manual' })
    const ruleEvents = (): number => service.events(session.id).filter((e) => e.kind === 'rule').length
    expect(ruleEvents()).toBe(2)
    const runs = (): number => service.events(session.id).filter((e) => e.kind === 'run').length
    const inPlaceAsARun = async (): Promise<void> => {
      const before = runs()
      const { inPlace } = await service.decide(session.id, { kind: 'undo' })
      expect(inPlace).toBe(true)
      expect(runs()).toBe(before)
      const kept = sessionShown(service, session.id)
      await service.run(session.id)
      expect(sessionShown(service, session.id)).toBe(kept)
    }
    // The last decision, the charge's classification: the line open again, the rule's reason gone.
    await inPlaceAsARun()
    const charge = lineOf('SMS ALERT CHARGES OCT')
    expect(charge).toMatchObject({ resolved: false, reasonCode: null, decidedBy: null })
    expect(charge?.reasons.some((r) => r.includes('an enabled rule'))).toBe(false)
    // Then the pairing: the line and the record apart again (the pool matched again), the line never paired by the rule again.
    await inPlaceAsARun()
    expect(lineOf('TRF FROM ADAEZE OKAFOR')?.decision).toBeNull()
    expect(lineOf('TRF FROM ADAEZE OKAFOR')?.provider.map((p) => p.id)).not.toContain('id-2')
    expect(ruleEvents()).toBe(2)
    db.close()
  })

  it('decide a line the user opens again (a resolution taken back) as a run would: the session is run, not the item changed alone', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-rule-reopened-')), 'cache.sqlite')
    const service = scenarioService([{ n: 1, amount: 100, day: '2026-10-10' }], file)
    const db = openCache(file)
    const rules = new RuleStore(db, { user: 'ada' })
    rules.save('test', SMS)
    const session = await scenarioSession(service, CSV, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    const chargeKey = (): string =>
      [...service.allItems(session.id)].find((i) => i.file.some((f) => f.description === 'SMS ALERT CHARGES OCT'))?.key as string
    const charge = () => [...service.allItems(session.id)].find((i) => i.key === chargeKey())
    // Resolved by hand before the rule was enabled: the run with the rule leaves the user's word.
    await service.decide(session.id, { kind: 'resolve', itemKey: chargeKey(), resolved: true })
    rules.setEnabled('test', 'sms-alert-charges', true)
    await service.run(session.id)
    expect(service.events(session.id).filter((e) => e.kind === 'rule')).toEqual([])
    expect(charge()).toMatchObject({ resolved: true, reasonCode: null })

    // Taken back, the line is open: the enabled rule decides it, as any run now would.
    const { inPlace } = await service.decide(session.id, { kind: 'undo' })
    expect(inPlace).toBe(false)
    expect(
      service
        .events(session.id)
        .filter((e) => e.kind === 'rule')
        .map((e) => e.payload)
    ).toEqual([expect.objectContaining({ name: 'sms-alert-charges', action: 'classify', reasonCode: 'bank_charge' })])
    expect(charge()).toMatchObject({ resolved: true, reasonCode: 'bank_charge', decidedBy: 'rule "sms-alert-charges" (version 1)' })
    const items = [...service.allItems(session.id)]
    await service.run(session.id)
    expect([...service.allItems(session.id)]).toEqual(items)

    // A note on the open line it decided is made in place: it opens nothing.
    expect((await service.decide(session.id, { kind: 'note', itemKey: chargeKey(), note: 'October SMS alerts' })).inPlace).toBe(true)
    db.close()
  })

  it('decide the lines a decision leaves open as a run would, in place; after a rule changes, by running the session', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-rule-in-place-')), 'cache.sqlite')
    const service = scenarioService(
      [
        { n: 1, amount: 100, day: '2026-10-10' },
        { n: 2, amount: 400, day: '2026-10-12', customer: { name: 'Chidi Okafor', email: 'chidi@example.com' } },
        { n: 3, amount: 250, day: '2026-10-14', customer: { name: 'Ada Obi', email: 'ada@example.com' } }
      ],
      file
    )
    const db = openCache(file)
    const rules = new RuleStore(db, { user: 'ada' })
    const OWN: Rule = {
      name: 'own-transfers',
      match: 'all',
      conditions: [{ field: 'description', operator: 'contains', value: 'CHIDI' }],
      action: { type: 'classify', as: 'transfer_between_own_accounts', reasonCode: 'own_transfer' }
    }
    rules.save('test', OWN)
    rules.setEnabled('test', 'own-transfers', true)
    rules.save('test', SMS)
    const csv = [
      'Account number,0123456789',
      'Currency,NGN',
      'Date,Reference,Description,Amount',
      '2026-10-10,PAY-0001,CARD SETTLEMENT,100.00',
      '2026-10-12,,NIP TRF FROM CHIDI OKAFOR,400.00',
      '2026-10-14,,NIP TRF FROM ADA OBI,250.00',
      '2026-10-28,,SMS ALERT CHARGES OCT,-52.50'
    ].join('\n')
    const session = await scenarioSession(service, csv, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    const find = (text: string) => [...service.allItems(session.id)].find((i) => i.file.some((f) => f.description === text))
    // Suggested with Chidi's payment, the line is not open: the rule leaves it.
    expect(find('NIP TRF FROM CHIDI OKAFOR')).toMatchObject({ outcome: 'suggested', resolved: false })
    expect(service.events(session.id).filter((e) => e.kind === 'rule')).toEqual([])

    // Rejected, it is open: the rule decides it in place, kept as its event, as a run would.
    const rejected = await service.decide(session.id, { kind: 'reject', itemKey: find('NIP TRF FROM CHIDI OKAFOR')?.key as string })
    expect(rejected.inPlace).toBe(true)
    expect(
      service
        .events(session.id)
        .filter((e) => e.kind === 'rule')
        .map((e) => e.payload)
    ).toEqual([expect.objectContaining({ name: 'own-transfers', action: 'classify', reasonCode: 'own_transfer' })])
    expect(find('NIP TRF FROM CHIDI OKAFOR')).toMatchObject({ outcome: 'only_in_file', resolved: true, reasonCode: 'own_transfer' })
    const items = [...service.allItems(session.id)]
    await service.run(session.id)
    expect([...service.allItems(session.id)]).toEqual(items)

    // Settled by the run (which gave the rules what it left open until they decided nothing more), the open lines are
    // not read again for the rules: not after it, nor after a note, an adjustment or an undo, each of which checks what
    // it changed, nor after a decision in place, which gives the rules what it made.
    const settledReads = PoolRuns.openLinesRead
    const chidi = find('NIP TRF FROM CHIDI OKAFOR')?.key as string
    await service.decide(session.id, { kind: 'reject', itemKey: find('NIP TRF FROM ADA OBI')?.key as string })
    expect((await service.decide(session.id, { kind: 'note', itemKey: chidi, note: 'Chidi is our director' })).inPlace).toBe(true)
    expect((await service.decide(session.id, { kind: 'adjust', currency: 'NGN', amount: '1.00', reason: 'rounding' })).inPlace).toBe(true)
    const undone = await service.decide(session.id, { kind: 'undo' })
    expect(undone.inPlace).toBe(true)
    const ada = find('NIP TRF FROM ADA OBI')?.key as string
    expect((await service.decide(session.id, { kind: 'note', itemKey: ada, note: 'Ada paid twice?' })).inPlace).toBe(true)
    const matched = await service.decide(session.id, {
      kind: 'match',
      providerIds: [...service.allItems(session.id)].find((i) => i.provider[0]?.amountMinor === 25_000)?.provider.map((p) => p.id) ?? [],
      fileIds: find('NIP TRF FROM ADA OBI')?.file.map((f) => f.id) ?? []
    })
    expect(matched.inPlace).toBe(true)
    expect(PoolRuns.openLinesRead).toBe(settledReads)
    const decided = [...service.allItems(session.id)]
    await service.run(session.id)
    expect([...service.allItems(session.id)]).toEqual(decided)

    // A rule enabled since the run would decide an open line (the SMS charge): the next decision runs the session.
    rules.setEnabled('test', 'sms-alert-charges', true)
    expect(find('NIP TRF FROM ADA OBI')).toMatchObject({ outcome: 'matched', decision: 'manual' })
    const next = await service.decide(session.id, { kind: 'unmatch', itemKey: find('NIP TRF FROM ADA OBI')?.key as string })
    expect(next.inPlace).toBe(false)
    expect(find('SMS ALERT CHARGES OCT')).toMatchObject({ resolved: true, reasonCode: 'bank_charge' })
    db.close()
  })

  it('pair in place as a run would: a record a decision takes leaves exactly one for a line, and what the pairing frees is given the rules again', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-rule-pair-in-place-')), 'cache.sqlite')
    const ada = { name: 'Ada Obi', email: 'ada@example.com' }
    const service = scenarioService(
      [
        { n: 1, amount: 100, day: '2026-10-10' },
        { n: 2, amount: 250, day: '2026-10-14', customer: ada },
        { n: 3, amount: 300, day: '2026-10-16', customer: ada }
      ],
      file
    )
    const db = openCache(file)
    const rules = new RuleStore(db, { user: 'ada' })
    rules.save('test', { ...PAIR_NICKNAME, conditions: [{ field: 'description', operator: 'contains', value: 'TRF FROM' }] })
    rules.setEnabled('test', 'transfers-by-name', true)
    const csv = [
      'Account number,0123456789',
      'Currency,NGN',
      'Date,Reference,Description,Amount',
      '2026-10-10,PAY-0001,CARD SETTLEMENT,100.00',
      '2026-10-15,,NIP TRF FROM ADA OBI,250.00',
      '2026-10-16,,CASH LODGEMENT,300.00'
    ].join('\n')
    const session = await scenarioSession(service, csv, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    const find = (text: string) => [...service.allItems(session.id)].find((i) => i.file.some((f) => f.description === text))
    const pairs = () => service.events(session.id).filter((e) => e.kind === 'rule')
    // Ada has two payments open: the rule names two records, and pairs neither.
    expect(pairs()).toEqual([])
    expect(find('CASH LODGEMENT')).toMatchObject({ outcome: 'suggested' })

    // A note on the transfer (open to the rule, which names two records) is made on its item alone.
    const noted = await service.decide(session.id, {
      kind: 'note',
      itemKey: find('NIP TRF FROM ADA OBI')?.key as string,
      note: 'Ada, which one?'
    })
    expect(noted.inPlace).toBe(true)

    // The lodgement matched by hand with Ada's 300 leaves one of hers free: the rule pairs the transfer with it, in place.
    const matched = await service.decide(session.id, {
      kind: 'match',
      providerIds: ['id-3'],
      fileIds: [find('CASH LODGEMENT')?.file[0]?.id as string]
    })
    expect(matched.inPlace).toBe(true)
    expect(pairs().map((e) => e.payload)).toEqual([
      expect.objectContaining({ name: 'transfers-by-name', action: 'pair', providerIds: ['id-2'] })
    ])
    expect(find('NIP TRF FROM ADA OBI')).toMatchObject({
      outcome: 'matched',
      decision: 'manual',
      decidedBy: 'rule "transfers-by-name" (version 1)'
    })
    const items = [...service.allItems(session.id)]
    const totals = service.totals(session.id)
    await service.run(session.id)
    expect([...service.allItems(session.id)]).toEqual(items)
    expect(pairs()).toHaveLength(1)
    expect(service.totals(session.id)).toEqual(totals)
    db.close()
  })
})
