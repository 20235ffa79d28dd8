// A pairing rule's index (the lines it may pair, the free records it counts) asked only of what a change reaches decides exactly what the rules decide of every item as the change leaves them: random items, shared and many-word names, references, changes that free and take records, followed change after change.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { MirroredItems, StoredItem } from '../../src/main/reconcile/items'
import { ruleApplications } from '../../src/main/reconcile/rules/applications'
import { PairingIndex } from '../../src/main/reconcile/rules/pairing-index'
import type { FileSide, ProviderSide, ReconItem } from '../../src/shared/reconcile'
import type { Rule, StoredRule } from '../../src/shared/rules'
import { propertyRuns } from '../support/property'

const RULES: Rule[] = [
  {
    name: 'sms',
    match: 'all',
    conditions: [{ field: 'description', operator: 'contains', value: 'SMS' }],
    action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
  },
  {
    name: 'by-name',
    match: 'all',
    conditions: [{ field: 'description', operator: 'contains', value: 'TRF FROM' }],
    action: { type: 'pair', with: 'customer', pattern: 'TRF FROM (.+)$' }
  },
  {
    name: 'by-reference',
    match: 'all',
    conditions: [{ field: 'description', operator: 'contains', value: 'REF' }],
    action: { type: 'pair', with: 'reference', pattern: 'REF (\\S+)' }
  },
  {
    name: 'to-one-customer',
    match: 'all',
    conditions: [{ field: 'description', operator: 'contains', value: 'ADA' }],
    action: { type: 'pair', with: 'customer', value: 'Ada' }
  }
]

// Names inside names ("obi nwosu" names one of them, "ada obi" two, "obi" three): a pairing that takes one leaves another line one.
const NAMES = ['Ada Obi', 'ADA  OBI NWOSU', 'Obi Nwosu', 'Chidi Obi', null]
const REFERENCES = ['PAY-1', 'pay-1', 'PAY-2', 'PAY-3', null]
const DESCRIPTIONS = [
  'TRF FROM ADA',
  'TRF FROM ada obi',
  'TRF FROM OBI NWOSU',
  'TRF FROM obi',
  'REF PAY-1 SETTLED',
  'REF pay-2',
  'REF PAY-9',
  'SMS ALERT',
  'ADA PAID',
  'CARD SETTLEMENT'
]
const OPEN = ['only_in_file', 'suggested', 'ambiguous'] as const
const FREE = ['only_in_provider', 'pending_at_provider', 'suggested', 'ambiguous'] as const

const recordArb = fc.record({ name: fc.nat(NAMES.length - 1), reference: fc.nat(REFERENCES.length - 1) })
// Mostly lines a pairing rule reads (the first six descriptions).
const lineArb = fc.record({ description: fc.oneof(fc.nat(5), fc.nat(DESCRIPTIONS.length - 1)), day: fc.integer({ min: 1, max: 9 }) })

/** One item as generated: its outcome, whether decided or resolved, its records' and lines' picks (as the outcome holds them, or any). */
const itemArb = fc
  .oneof(
    fc.record({
      outcome: fc.constantFrom('only_in_provider', 'pending_at_provider'),
      records: fc.array(recordArb, { minLength: 1, maxLength: 2 }),
      lines: fc.constant([])
    }),
    { arbitrary: fc.record({ outcome: fc.constant('only_in_file'), records: fc.constant([]), lines: fc.tuple(lineArb) }), weight: 3 },
    fc.record({
      outcome: fc.constantFrom('suggested', 'ambiguous', 'matched'),
      records: fc.array(recordArb, { minLength: 1, maxLength: 2 }),
      lines: fc.array(lineArb, { minLength: 1, maxLength: 2 })
    }),
    fc.record({
      outcome: fc.constantFrom(...OPEN, ...FREE, 'matched'),
      records: fc.array(recordArb, { maxLength: 2 }),
      lines: fc.array(lineArb, { maxLength: 2 })
    })
  )
  .chain((sides) =>
    // Mostly neither decided nor resolved: open lines and free records.
    fc
      .record({ decided: fc.constantFrom(false, false, false, true), resolved: fc.constantFrom(false, false, false, true) })
      .map((flags) => ({ ...sides, ...flags }))
  )
type ItemArb = typeof itemArb extends fc.Arbitrary<infer T> ? T : never

let ids = 0
function item(g: ItemArb): ReconItem {
  const provider: ProviderSide[] = g.records.map((r) => {
    const id = `p${++ids}`
    const reference = REFERENCES[r.reference] ?? null
    return {
      id,
      reference,
      serviceReference: null,
      date: '2026-10-01',
      amountMinor: 100,
      feesMinor: 0,
      currency: 'NGN',
      status: 'success',
      channel: null,
      name: NAMES[r.name] ?? null
    }
  })
  const file = g.lines.map((l) => {
    const id = `f${String(++ids).padStart(6, '0')}`
    return {
      id,
      fileId: 'file',
      line: ids,
      date: `2026-10-0${l.day}`,
      amountMinor: 100,
      currency: 'NGN',
      description: DESCRIPTIONS[l.description] ?? '',
      reference: null,
      counterparty: null
    } as unknown as FileSide
  })
  return {
    key: `k${++ids}`,
    outcome: g.outcome,
    provider,
    file,
    differenceMinor: null,
    score: null,
    reasons: [],
    decision: g.decided ? 'accepted' : null,
    note: null,
    reasonCode: null,
    resolved: g.resolved,
    decidedBy: null,
    decidedAt: null
  } as ReconItem
}

/** A mirror of the items, its changes told to its listeners. */
function mirrorOf(items: readonly ReconItem[]): MirroredItems & { change(gone: readonly ReconItem[], made: readonly ReconItem[]): void } {
  const map = new Map<string, StoredItem>(items.map((it, position) => [it.key, { position, data: '', item: it }]))
  const m = {
    token: null,
    items: map,
    poolOf: new Map<string, ReconItem>(),
    listeners: new Map() as MirroredItems['listeners'],
    change(gone: readonly ReconItem[], made: readonly ReconItem[]): void {
      for (const it of gone) {
        map.delete(it.key)
        for (const listener of m.listeners.values()) listener(it.key, null)
      }
      for (const it of made) {
        const stored = { position: map.size, data: '', item: it }
        map.set(it.key, stored)
        for (const listener of m.listeners.values()) listener(it.key, stored)
      }
    }
  }
  return m
}

/** The lines the rules decide of these items, each taken as ruled before, until they decide nothing more (the items then settled under them). */
function settle(rules: readonly StoredRule[], items: readonly ReconItem[], ruled: Set<string>): void {
  for (;;) {
    const applied = ruleApplications(rules, items, ruled)
    if (applied.length === 0) return
    for (const a of applied) for (const id of a.fileIds) ruled.add(id)
  }
}

describe('a pairing rule asked only of what a change reaches', () => {
  it('decides what the rules decide of every item the change leaves', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 20 }),
        fc.subarray([0, 1, 2, 3], { minLength: 1 }),
        fc.array(
          fc.record({
            gone: fc.array(fc.nat(), { maxLength: 4 }),
            made: fc.array(itemArb, { maxLength: 3 }),
            // What becomes of each item gone (its records and lines in another outcome; every fifth: nothing).
            move: fc.array(fc.nat(), { minLength: 4, maxLength: 4 })
          }),
          {
            minLength: 1,
            maxLength: 6
          }
        ),
        (start, enabled, changes) => {
          const rules: StoredRule[] = enabled.map((k, position) => ({
            rule: RULES[k] as Rule,
            position,
            version: 1,
            enabled: true,
            updatedAt: '',
            updatedBy: 'test'
          }))
          const items = start.map(item)
          const mirror = mirrorOf(items)
          const ruled = new Set<string>()
          settle(rules, items, ruled)
          const index = PairingIndex.of(mirror, rules)
          for (const change of changes) {
            const now = [...mirror.items.values()].map((s) => s.item)
            const gone = [...new Set(change.gone.filter(() => now.length > 0).map((k) => now[k % now.length] as ReconItem))]
            // Made: new items, and items holding the records and lines of those gone in another outcome (freed, taken).
            const made = change.made.map(item)
            for (const [k, g] of gone.entries()) {
              const pick = change.move[k] as number
              if (pick % 5 === 4) continue
              const outcome = [...OPEN, ...FREE, 'matched'][pick % 8] as ReconItem['outcome']
              made.push({
                ...g,
                key: `${g.key}-${outcome}-${pick}`,
                outcome,
                decision: pick % 3 === 0 ? 'accepted' : null,
                resolved: false
              })
            }
            const standing = [...now.filter((it) => !gone.includes(it)), ...made]
            expect(index.applications(gone, made, ruled)).toEqual(ruleApplications(rules, standing, ruled))
            mirror.change(gone, made)
            settle(rules, standing, ruled)
          }
        }
      ),
      propertyRuns(300)
    )
  })

  it('asks a later line naming a record a pairing took, though the change did not reach it', () => {
    const rules: StoredRule[] = [{ rule: RULES[1] as Rule, position: 0, version: 1, enabled: true, updatedAt: '', updatedBy: 'test' }]
    const free = (name: number): ItemArb => ({
      outcome: 'only_in_provider',
      decided: false,
      resolved: false,
      records: [{ name, reference: 4 }],
      lines: []
    })
    const open = (description: number, day: number): ItemArb => ({
      outcome: 'only_in_file',
      decided: false,
      resolved: false,
      records: [],
      lines: [{ description, day }]
    })
    // "ada obi" names two free records (settled: no pairing); a new line "obi nwosu", earlier, names one of them.
    const [adaObi, adaObiNwosu, later] = [item(free(0)), item(free(1)), item(open(1, 5))] as [ReconItem, ReconItem, ReconItem]
    const mirror = mirrorOf([adaObi, adaObiNwosu, later])
    expect(
      ruleApplications(
        rules,
        [...mirror.items.values()].map((s) => s.item),
        new Set()
      )
    ).toEqual([])
    const earlier = item(open(2, 3))
    const applied = PairingIndex.of(mirror, rules).applications([], [earlier], new Set())
    expect(applied.map((a) => [a.fileIds, a.providerIds])).toEqual([
      [earlier.file.map((f) => f.id), adaObiNwosu.provider.map((p) => p.id)],
      [later.file.map((f) => f.id), adaObi.provider.map((p) => p.id)]
    ])
  })
})
