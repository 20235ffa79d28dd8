// Rules Ledgerline proposes from what the user confirmed: a line's wording paired with one party, once the pattern passed the gate (PROPOSAL_GATE); a proposal is only saved, never enabled, by the user.
import type Database from 'better-sqlite3'
import { gateInWords, passesGate, type AliasEvidence, type ProposedRule } from '../../../shared/learning'
import { toMajorString } from '../../../shared/money/money'
import type { Rule, RuleCondition, StoredRule } from '../../../shared/rules'
import { learnedElsewhere } from './evidence'

/** What every session of the profile teaches, as rules for the patterns that passed the gate (most confirmed first). */
export function proposedRules(db: Database.Database, profileId: string, saved: readonly StoredRule[]): ProposedRule[] {
  const { aliases } = learnedElsewhere(db, { id: '', profileId, team: null })
  const names = new Set(saved.map((r) => r.rule.name))
  const out: ProposedRule[] = []
  for (const byParty of aliases.values())
    for (const e of byParty.values()) {
      if (!passesGate(e)) continue
      // A wording confirmed with two parties is no alias: it is not proposed.
      if ([...byParty.values()].some((o) => o !== e && o.confirmed > 0)) continue
      const rule = ruleOf(e)
      out.push({ rule, evidence: e, gate: gateInWords(e), saved: names.has(rule.name) })
    }
  return out.sort((a, b) => b.evidence.confirmed - a.evidence.confirmed || a.rule.name.localeCompare(b.rule.name))
}

/**
 * The rule of a pattern: its words, in its field, as whole words in their order; the sign of its
 * amounts, and the amount itself when every confirmation had the same; paired with the party's record.
 */
function ruleOf(e: AliasEvidence): Rule {
  const slug = e.lineWords
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
  const amounts = Object.keys(e.amounts)
  const [currency, minor] = (amounts[0] ?? '').split(' ')
  const one = amounts.length === 1 && currency && minor !== undefined ? toMajorString(Number(minor), currency) : null
  const conditions: RuleCondition[] = [
    {
      field: e.field,
      operator: 'matches',
      value: e.lineWords
        .split(' ')
        .map(escaped)
        .map((w) => `\\b${w}\\b`)
        .join('.*')
    },
    one === null
      ? { field: 'amount', operator: 'sign', value: Number(minor) < 0 ? 'debit' : 'credit' }
      : { field: 'amount', operator: 'equals', value: one },
    ...(currency ? [{ field: 'currency' as const, operator: 'equals' as const, value: currency }] : [])
  ]
  return {
    name: `alias-${slug || 'line'}`,
    description: `Proposed from what you confirmed: "${e.lineWords}" is the provider's ${e.partyLabel}`.slice(0, 500),
    match: 'all',
    conditions,
    action: { type: 'pair', with: 'customer', value: e.partyKey }
  }
}

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
