// A rule's check and its conditions: any JSON at all is checked without a throw (mistakes named by their place), and each operator holds for a line exactly as it says, amounts compared exactly in the line's currency.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkRule,
  conditionHolds,
  pairingPart,
  ruleDraftFromLine,
  ruleHolds,
  ruleInWords,
  type Rule,
  type RuleSubject
} from '../../src/shared/rules'
import { propertyRuns } from '../support/property'

const line = (fields: Partial<RuleSubject> = {}): RuleSubject => ({
  description: 'SMS ALERT CHARGES OCT',
  reference: 'FT2610280001',
  counterparty: null,
  amountMinor: -5250,
  currency: 'NGN',
  date: '2026-10-28',
  channel: null,
  ...fields
})

const SMS: Rule = {
  name: 'sms-alert-charges',
  match: 'all',
  conditions: [{ field: 'description', operator: 'contains', value: 'SMS ALERT' }],
  action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
}

describe('rules', () => {
  it('checks any JSON without a throw, and a valid rule mutated at random is either a rule or its mistakes by path', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const checked = checkRule(json)
        if (!checked.ok) for (const p of checked.problems) expect(p).toMatch(/^[^:]+: /)
      }),
      propertyRuns(300)
    )
    fc.assert(
      fc.property(fc.constantFrom('name', 'match', 'conditions', 'action'), fc.jsonValue(), (key, value) => {
        const checked = checkRule({ ...SMS, [key]: value })
        if (!checked.ok) expect(checked.problems.some((p) => p.startsWith(key))).toBe(true)
      }),
      propertyRuns(300)
    )
  })

  it('pairs by a pattern that finds the part in the line, or by the part given, never both or neither', () => {
    const pair = (action: Record<string, unknown>) => checkRule({ ...SMS, action: { type: 'pair', with: 'customer', ...action } })
    const both = pair({ pattern: 'TRF FROM (.+)', value: 'ade@example.com' })
    expect(both.ok ? [] : both.problems).toEqual([
      'action: a pairing takes either a "pattern" that finds the part in the line, or the part itself as "value", not both'
    ])
    expect(pair({}).ok).toBe(false)
    const given = pair({ value: 'ade@example.com' })
    if (!given.ok) throw new Error(given.problems.join('; '))
    if (given.rule.action.type !== 'pair') throw new Error('not a pairing')
    expect(pairingPart(given.rule.action, line())).toBe('ade@example.com')
    expect(ruleInWords(given.rule)).toBe(
      `When the line's description contains "SMS ALERT": pair the line with the provider's record whose customer is "ade@example.com".`
    )
  })

  it('drafts from a line a rule of its steady words and sign that holds for the line and passes the check', () => {
    const draft = ruleDraftFromLine(line({ description: 'SMS ALERT CHARGES OCT 2026 FT2610' }), 'bank_charge')
    expect(ruleInWords(draft)).toBe(
      `When the line's description contains "SMS ALERT CHARGES" and the line's amount is a debit: classify the line as a bank charge (reason code bank_charge).`
    )
    expect(draft.name).toBe('sms-alert-charges')
    expect(checkRule(draft).ok).toBe(true)
    expect(ruleHolds(draft, line({ description: 'SMS ALERT CHARGES NOV 2026' }))).toBe(true)
    fc.assert(
      fc.property(
        fc.string(),
        fc.integer({ min: -10_000_000, max: 10_000_000 }).filter((n) => n !== 0),
        (description, amountMinor) => {
          const subject = line({ description, amountMinor })
          const made = ruleDraftFromLine(subject, null)
          expect(checkRule(made).ok).toBe(true)
          expect(ruleHolds(made, subject)).toBe(true)
        }
      ),
      propertyRuns(300)
    )
  })

  it('holds each operator as it says, amounts exact in the line’s currency', () => {
    expect(ruleHolds(SMS, line())).toBe(true)
    expect(ruleHolds(SMS, line({ description: 'sms alert charges' }))).toBe(true)
    expect(conditionHolds({ field: 'description', operator: 'contains', value: 'sms alert', ignoreCase: false }, line())).toBe(false)
    expect(ruleHolds(SMS, line({ description: null }))).toBe(false)
    expect(conditionHolds({ field: 'amount', operator: 'equals', value: '-52.50' }, line())).toBe(true)
    expect(conditionHolds({ field: 'amount', operator: 'equals', value: '-52.5' }, line())).toBe(true)
    expect(conditionHolds({ field: 'amount', operator: 'between', value: ['-100', '-52.51'] }, line())).toBe(false)
    expect(conditionHolds({ field: 'amount', operator: 'sign', value: 'debit' }, line())).toBe(true)
    expect(conditionHolds({ field: 'amount', operator: 'sign', value: 'credit' }, line())).toBe(false)
    expect(conditionHolds({ field: 'amount', operator: 'at_least', value: '100' }, line({ amountMinor: 100, currency: 'XOF' }))).toBe(true)
    expect(conditionHolds({ field: 'day_of_month', operator: 'between', value: [25, 31] }, line())).toBe(true)
    expect(conditionHolds({ field: 'reference', operator: 'starts_with', value: 'ft26' }, line())).toBe(true)
    expect(conditionHolds({ field: 'reference', operator: 'matches', value: '^FT\\d{10}$' }, line())).toBe(true)
    const any: Rule = { ...SMS, match: 'any', conditions: [...SMS.conditions, { field: 'channel', operator: 'equals', value: 'card' }] }
    expect(ruleHolds(any, line({ description: 'POS', channel: 'CARD' }))).toBe(true)
    expect(
      pairingPart({ type: 'pair', with: 'reference', pattern: 'INV[- ]?(\\d+)' }, line({ description: 'TRF FROM ADA INV-0042' }))
    ).toBe('0042')
    expect(pairingPart({ type: 'pair', with: 'reference', pattern: 'INV-\\d+' }, line({ description: 'TRF FROM ADA INV-0042' }))).toBe(
      'INV-0042'
    )
    expect(pairingPart({ type: 'pair', with: 'reference', pattern: 'INV-\\d+' }, line())).toBeNull()
  })
})
