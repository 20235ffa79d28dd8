// Every decision leaves the session as a full run would: after any random sequence of decisions (accept, accept all above a score, reject, match, unmatch, note, reason, resolve, adjust, undo), each applied in place or by a run as the service chooses, and several in place one after another, with enabled rules that classify, leave out or pair lines, or none (enabled, disabled or saved anew between decisions, each change followed by a run as rules act in runs), the stored items and totals are byte for byte what running the whole session again makes of the same events.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { PoolRuns } from '../../src/main/reconcile/pool-run'
import { RuleStore } from '../../src/main/reconcile/rules/store'
import type { Decision, ReconItem } from '../../src/shared/reconcile'
import type { Rule } from '../../src/shared/rules'
import { propertyRuns } from '../support/property'
import { balancedStatement, scenarioService, scenarioSession, sessionShown } from '../support/recon-session'

const NAMES = [
  { name: 'Ada Obi', email: 'ada@example.com', says: 'ADA OBI' },
  { name: 'Babatunde Adeyemi', email: 'tunde@example.com', says: 'TUNDE ADE' },
  { name: 'Chidi Okafor', email: 'chidi@example.com', says: 'CHIDI OKAFOR' }
]

/** A payment and how (or whether) the statement shows it. */
const paymentArb = fc.record({
  amount: fc.constantFrom(100, 250, 250, 1000, 1500),
  day: fc.integer({ min: 3, max: 16 }),
  who: fc.integer({ min: 0, max: NAMES.length - 1 }),
  // 'twice': the line and a second one with the same reference (a duplicate in the file).
  // 'in-text': the reference in the line's words, not its reference column.
  // 'split': paid as two lines that add up to it (which the groups find, one record as several lines).
  shown: fc.constantFrom('reference', 'name', 'name', 'net', 'other-amount', 'missing', 'with-next', 'twice', 'in-text', 'split'),
  lag: fc.integer({ min: 0, max: 2 }),
  fees: fc.constantFrom(0, 0, 15)
})

/** The rules a session may have: the bank's SMS charges classified, one customer's transfers taken for the business's own, a line of interest left out. */
const RULES: Rule[] = [
  {
    name: 'sms-alert-charges',
    match: 'all',
    conditions: [{ field: 'description', operator: 'contains', value: 'SMS ALERT' }],
    action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
  },
  {
    // Lines often suggested with a record first: a rejection or an unmatch leaves them open for it.
    name: 'own-transfers',
    match: 'all',
    conditions: [{ field: 'description', operator: 'contains', value: 'CHIDI' }],
    action: { type: 'classify', as: 'transfer_between_own_accounts', reasonCode: 'timing' }
  },
  {
    name: 'interest',
    match: 'any',
    conditions: [{ field: 'description', operator: 'contains', value: 'INTEREST' }],
    action: { type: 'leave_out', reason: 'interest is booked by the bank' }
  },
  {
    // A pairing rule counts every free record of the session: a decision that frees or takes one may leave exactly one
    // for a line, and a pairing it makes frees others (the line's suggestion), which the rules are given again.
    name: 'transfers-by-name',
    match: 'all',
    conditions: [{ field: 'description', operator: 'contains', value: 'TRF FROM' }],
    action: { type: 'pair', with: 'customer', pattern: 'TRF FROM (.+)$' }
  }
]

/** A move: a decision kind, and which of the items it can apply to (taken modulo their number when it is made). */
const moveArb = fc.record({
  kind: fc.constantFrom(
    'accept',
    'accept-all',
    'reject',
    'match',
    'unmatch',
    'note',
    'reason',
    'resolve',
    'adjust',
    'undo',
    'undo',
    'rules'
  ),
  pick: fc.nat(1000),
  other: fc.nat(1000),
  // Whether the session is compared with a full run after this move (which also stores that run); else the next decision
  // starts from what the last one left in place.
  check: fc.boolean()
})

type Of<A> = A extends fc.Arbitrary<infer T> ? T : never

function statement(payments: Of<typeof paymentArb>[], charges: number): string {
  const lines: string[] = []
  // 'with-next': one line for this payment and the next together (a settlement), which the groups find.
  const settled = new Set<number>()
  payments.forEach((p, k) => {
    if (p.shown === 'missing' || settled.has(k)) return
    const next = payments[k + 1]
    if (p.shown === 'with-next' && next) {
      settled.add(k + 1)
      // On an odd lag the settlement names both payments' references in its words (the keys match it to both together).
      const named = p.lag % 2 === 1 ? ` PAY-000${k + 1} PAY-000${k + 2}` : ''
      lines.push(`2026-10-${String(p.day + p.lag).padStart(2, '0')},,SETTLEMENT${named},${p.amount + next.amount}.00`)
      return
    }
    const day = `2026-10-${String(p.day + p.lag).padStart(2, '0')}`
    const who = NAMES[p.who] as (typeof NAMES)[number]
    // 'net': what reached the bank, the amount less the provider's fees.
    const amount = p.shown === 'other-amount' ? p.amount + 7 : p.shown === 'net' ? p.amount - p.fees : p.amount
    if (p.shown === 'split') {
      const part = Math.round(p.amount * 0.4)
      lines.push(`${day},,TRANSFER PART 1,${part}.00`, `${day},,TRANSFER PART 2,${p.amount - part}.00`)
      return
    }
    const keyed = p.shown === 'reference' || p.shown === 'twice'
    const words = p.shown === 'in-text' ? `NIP TRF PAY-000${k + 1} FROM ${who.says}` : `NIP TRF FROM ${who.says}`
    lines.push(`${day},${keyed ? `PAY-000${k + 1}` : ''},${words},${amount}.00`)
    if (p.shown === 'twice') lines.push(`${day},PAY-000${k + 1},NIP TRF FROM ${who.says} AGAIN,${amount}.00`)
  })
  for (let c = 0; c < charges; c++) lines.push(`2026-10-2${c},,SMS ALERT CHARGES,-52.50`)
  // A line late in the month, so a period from the 5th always holds one.
  lines.push('2026-10-28,,INTEREST PAID,3.10')
  return balancedStatement(lines)
}

/** The decision a move makes of the items as they are now, or null when none applies. */
function decisionOf(move: Of<typeof moveArb>, items: readonly ReconItem[]): Decision | null {
  const nth = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length])
  const suggested = items.filter((i) => i.outcome === 'suggested')
  switch (move.kind) {
    case 'accept':
    case 'reject': {
      const it = nth(suggested, move.pick)
      return it ? { kind: move.kind, itemKey: it.key } : null
    }
    case 'unmatch': {
      const it = nth(
        items.filter((i) => i.provider.length > 0 && i.file.length > 0 && i.outcome !== 'suggested' && i.outcome !== 'ambiguous'),
        move.pick
      )
      return it ? { kind: 'unmatch', itemKey: it.key } : null
    }
    case 'match': {
      const record = nth(
        items.flatMap((i) => (i.file.length === 0 ? i.provider : [])),
        move.pick
      )
      const line = nth(
        items.flatMap((i) => (i.provider.length === 0 && !i.resolved ? i.file : [])),
        move.other
      )
      return record && line ? { kind: 'match', providerIds: [record.id], fileIds: [line.id] } : null
    }
    case 'note': {
      const it = nth(items, move.pick)
      return it ? { kind: 'note', itemKey: it.key, note: `checked ${move.other}` } : null
    }
    case 'reason': {
      const it = nth(items, move.pick)
      return it ? { kind: 'reason', itemKey: it.key, code: move.other % 2 === 0 ? 'bank_charge' : 'timing' } : null
    }
    case 'resolve': {
      const it = nth(items, move.pick)
      return it ? { kind: 'resolve', itemKey: it.key, resolved: !it.resolved } : null
    }
    case 'adjust':
      return { kind: 'adjust', currency: 'NGN', amount: `${(move.other % 50) - 25}.50`, reason: 'rounding at the bank' }
    default:
      return { kind: 'undo' }
  }
}

describe('decisions', () => {
  it('leave the items and totals byte for byte as a full run of the same events makes them', { timeout: 600_000 }, async () => {
    // How many of each kind were applied in place, over every run of the property: each kind must have been, or the property proved nothing of it.
    const inPlace = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(
        fc.array(paymentArb, { minLength: 2, maxLength: 16 }),
        fc.integer({ min: 0, max: 2 }),
        fc.array(moveArb, { minLength: 1, maxLength: 10 }),
        // The period's first day: from the 5th, the records of the 3rd and 4th lie outside it, within the window's reach.
        fc.constantFrom('2026-10-01', '2026-10-05'),
        // The rules enabled before the first run (a 'rules' move enables, disables or saves one anew between decisions).
        fc.constantFrom<number[]>([], [0, 1, 2], [1], [1, 2], [3], [1, 3], [0, 1, 2, 3]),
        async (payments, charges, moves, from, enabledFirst) => {
          const dir = mkdtempSync(join(tmpdir(), 'ledgerline-in-place-'))
          const cache = join(dir, 'cache.sqlite')
          const service = scenarioService(
            payments.map((p, k) => ({
              n: k + 1,
              amount: p.amount,
              day: `2026-10-${String(p.day).padStart(2, '0')}`,
              fees: p.fees,
              customer: NAMES[p.who] as (typeof NAMES)[number]
            })),
            cache
          )
          const rulesDb = openCache(cache)
          const rules = new RuleStore(rulesDb, { user: 'ada' })
          for (const rule of RULES) rules.save('test', rule)
          for (const k of enabledFirst) rules.setEnabled('test', (RULES[k] as Rule).name, true)
          const session = await scenarioSession(service, statement(payments, charges), {
            name: 'october.csv',
            from,
            to: '2026-10-31'
          })
          const compare = async (after: string): Promise<void> => {
            const decided = sessionShown(service, session.id)
            await service.run(session.id)
            expect(sessionShown(service, session.id), after).toBe(decided)
          }
          for (const [k, move] of moves.entries()) {
            const last = k === moves.length - 1
            if (move.kind === 'rules') {
              // A rule enabled or disabled, or saved anew (its next version, which holds for the same lines).
              const rule = RULES[move.pick % RULES.length] as Rule
              const enabled = rules.list('test').find((r) => r.rule.name === rule.name)?.enabled === true
              if (move.other % 3 === 0) rules.save('test', { ...rule, description: `version ${move.other}` })
              else rules.setEnabled('test', rule.name, !enabled)
              // Rules act in runs: the session is run, and the decisions after it are made under the rules as they are now.
              await service.run(session.id)
              continue
            }
            if (move.kind === 'accept-all') {
              // Every suggestion scoring at least the move's figure, groups too on odd moves.
              await service.acceptAll(session.id, {}, move.pick % 12, move.other % 2 === 1)
              if (move.check || last) await compare('after accepting all')
              continue
            }
            const decision = decisionOf(move, [...service.allItems(session.id)])
            if (!decision) continue
            try {
              const answer = await service.decide(session.id, decision)
              if (answer.inPlace) inPlace.set(decision.kind, (inPlace.get(decision.kind) ?? 0) + 1)
            } catch (e) {
              // A decision the service refuses (nothing left to undo, say) changes nothing.
              if (!(e instanceof Error && 'code' in e)) throw e
            }
            if (move.check || last) await compare(`after ${decision.kind} (move ${k + 1} of ${moves.length})`)
          }
          rulesDb.close()
          rmSync(dir, { recursive: true, force: true })
        }
      ),
      {
        ...propertyRuns(Number(process.env.RUNS ?? 60)),
        // Always among them: Ada paid twice and the statement shows both (one at another amount); accepting the suggestion
        // of one leaves the other hers alone, which the pairing rule pairs with the line that names her, in place.
        examples: [
          [
            [
              { amount: 250, day: 10, who: 0, shown: 'name', lag: 0, fees: 0 },
              { amount: 1000, day: 12, who: 0, shown: 'other-amount', lag: 0, fees: 0 }
            ],
            0,
            [{ kind: 'accept', pick: 0, other: 0, check: true }],
            '2026-10-01',
            [3]
          ]
        ]
      }
    )
    // The pool matched again only where a decision reaches never left a member in no item or in two (it would have been matched whole).
    expect(PoolRuns.replayMismatches).toBe(0)
    for (const kind of ['accept', 'reject', 'match', 'unmatch', 'note', 'adjust', 'undo'])
      expect(inPlace.get(kind) ?? 0, `${kind} applied in place at least once`).toBeGreaterThan(0)
    // And pairings a rule made of what a decision left were matched in place, not only by runs.
    expect(PoolRuns.pairingRounds, 'pairings by a rule matched in place').toBeGreaterThan(0)
  })
})
