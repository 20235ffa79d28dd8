// A preparer's client gives the workspace's rules a shared session's items only when something changed since they last decided nothing: a new event (a decision, a run) or another rule or version; a sync ring with nothing new reads none of its items.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { workspaceRuleApplications, workspaceRulesAsked } from '../../src/main/team/rules'
import type { Rule, StoredRule } from '../../src/shared/rules'
import { balancedStatement, scenarioService, scenarioSession } from '../support/recon-session'

const SMS: Rule = {
  name: 'sms-alert-charges',
  match: 'all',
  conditions: [{ field: 'description', operator: 'contains', value: 'SMS ALERT' }],
  action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
}

const CSV = balancedStatement(['2026-10-10,PAY-0001,CARD SETTLEMENT,100.00', '2026-10-20,,TRANSFER FROM SOMEONE,75.00'])

const stored = (rule: Rule, version: number): StoredRule => ({
  rule,
  position: 0,
  version,
  enabled: true,
  updatedAt: '2026-10-31T00:00:00Z',
  updatedBy: 'alice'
})

describe("the workspace's rules on a sync ring", () => {
  it('read a session again only after a new event or a change of the rules', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-workspace-asked-')), 'cache.sqlite')
    const service = scenarioService([{ n: 1, amount: 100, day: '2026-10-10' }], file)
    const session = await scenarioSession(service, CSV, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    const db = openCache(file)
    const asked = (rules: StoredRule[]): number => {
      const before = workspaceRulesAsked.times
      expect(workspaceRuleApplications(db, session.id, rules)).toEqual([])
      return workspaceRulesAsked.times - before
    }
    // Nothing for the rule to decide: asked once, then not again while nothing changes.
    expect(asked([stored(SMS, 1)])).toBe(1)
    expect(asked([stored(SMS, 1)])).toBe(0)
    // A decision is a new event: asked again.
    const open = [...service.allItems(session.id)].find((i) => i.file.some((f) => f.description === 'TRANSFER FROM SOMEONE'))
    await service.decide(session.id, { kind: 'note', itemKey: open?.key as string, note: 'ask the customer' })
    expect(asked([stored(SMS, 1)])).toBe(1)
    expect(asked([stored(SMS, 1)])).toBe(0)
    // The rule's next version, or another rule: asked again.
    expect(asked([stored(SMS, 2)])).toBe(1)
    const transfers: Rule = { ...SMS, name: 'transfers', conditions: [{ field: 'description', operator: 'contains', value: 'NONE' }] }
    expect(asked([stored(SMS, 2), { ...stored(transfers, 1), position: 1 }])).toBe(1)
    // A rule that decides a line is asked every ring until its decision is sent (an event).
    const deciding = stored(
      { ...SMS, name: 'transfers-are-own', conditions: [{ field: 'description', operator: 'contains', value: 'TRANSFER' }] },
      1
    )
    const before = workspaceRulesAsked.times
    expect(workspaceRuleApplications(db, session.id, [deciding])).toHaveLength(1)
    expect(workspaceRuleApplications(db, session.id, [deciding])).toHaveLength(1)
    expect(workspaceRulesAsked.times - before).toBe(2)
    db.close()
  })
})
