// A rule tried before it is enabled: over a session and the profile's last closed ones, which items it would act on, and of those how many it would leave as the user decided them, how many it would decide otherwise, and how many nobody has decided yet.
import { moneyText } from '../../../shared/money'
import {
  pairingPart,
  RecordFinder,
  ruleHolds,
  type Rule,
  type RulePreview,
  type RulePreviewItem,
  type RulePreviewSession,
  type RuleSubject,
  type RuleVerdict
} from '../../../shared/rules'
import { shortItemKey, type FileSide, type ReconItem, type SessionInfo } from '../../../shared/reconcile'

const EXAMPLES = 20

/** The line as a rule's conditions see it, with the channel of the record it is paired with (one record, else none). */
export function ruleSubject(line: FileSide, item: Pick<ReconItem, 'provider'>): RuleSubject {
  const channels = new Set(item.provider.map((p) => p.channel))
  return {
    description: line.description,
    reference: line.reference,
    counterparty: line.counterparty,
    amountMinor: line.amountMinor,
    currency: line.currency,
    date: line.date,
    channel: channels.size === 1 ? ([...channels][0] ?? null) : null
  }
}

const paired = (item: ReconItem): boolean =>
  item.provider.length > 0 && item.file.length > 0 && (item.outcome === 'matched' || item.decision !== null)

/** How the rule's act compares with the item as the user left it. */
function verdictOf(rule: Rule, item: ReconItem, line: RuleSubject, records: RecordFinder): { verdict: RuleVerdict; now: string } {
  const action = rule.action
  const state = paired(item)
    ? `paired with ${item.provider.map((p) => p.reference ?? p.name ?? 'a record').join(', ')}`
    : item.resolved
      ? `resolved${item.reasonCode ? ` (${item.reasonCode})` : ''}`
      : 'open'
  switch (action.type) {
    case 'classify':
      if (paired(item)) return { verdict: 'otherwise', now: `${state}; the rule would call it ${action.reasonCode}` }
      if (item.resolved) return { verdict: item.reasonCode === action.reasonCode ? 'as_decided' : 'otherwise', now: state }
      return { verdict: 'undecided', now: `open; the rule would resolve it as ${action.reasonCode}` }
    case 'leave_out':
      if (paired(item)) return { verdict: 'otherwise', now: `${state}; the rule would leave it out` }
      if (item.resolved) return { verdict: 'as_decided', now: state }
      return { verdict: 'undecided', now: 'open; the rule would leave it out' }
    case 'pair': {
      const part = pairingPart(action, line)
      if (part === null)
        return { verdict: paired(item) || item.resolved ? 'otherwise' : 'undecided', now: `${state}; the pattern finds nothing in it` }
      const named = new Set(records.find(part))
      if (paired(item))
        return item.provider.some((p) => named.has(p.id))
          ? { verdict: 'as_decided', now: state }
          : { verdict: 'otherwise', now: `${state}; the rule would pair it with ${part}` }
      const found = named.size
      return {
        verdict: item.resolved ? 'otherwise' : 'undecided',
        now: `${state}; the rule would pair it with ${part}${found === 0 ? ' (no record of the session has it)' : ''}`
      }
    }
  }
}

/** The rule tried on each session's items: the first line of an item the rule holds for decides it (as a rule is applied). */
export function previewRule(rule: Rule, sessions: readonly { session: SessionInfo; items: Iterable<ReconItem> }[]): RulePreview {
  const out: RulePreview = { rule: rule.name, sessions: [], items: 0, asDecided: 0, otherwise: 0, undecided: 0 }
  for (const { session, items } of sessions) {
    const list = [...items]
    // The session's records, by the field a pairing rule finds them by.
    const records = new RecordFinder(rule.action.type === 'pair' ? rule.action.with : 'reference')
    if (rule.action.type === 'pair') for (const item of list) for (const p of item.provider) records.add(p)
    const s: RulePreviewSession = {
      sessionId: session.id,
      name: session.name,
      from: session.from,
      to: session.to,
      closed: session.closedAt !== null,
      items: 0,
      asDecided: 0,
      otherwise: 0,
      undecided: 0,
      examples: []
    }
    const examples: RulePreviewItem[] = []
    for (const item of list) {
      const line = item.file.find((f) => ruleHolds(rule, ruleSubject(f, item)))
      if (!line) continue
      const subject = ruleSubject(line, item)
      const { verdict, now } = verdictOf(rule, item, subject, records)
      s.items++
      if (verdict === 'as_decided') s.asDecided++
      else if (verdict === 'otherwise') s.otherwise++
      else s.undecided++
      examples.push({
        itemKey: shortItemKey(item.key),
        verdict,
        line: `${line.date} ${moneyText(line.amountMinor, line.currency)} ${[line.reference, line.description].filter(Boolean).join(' ')}`.trim(),
        now
      })
    }
    const order: Record<RuleVerdict, number> = { otherwise: 0, undecided: 1, as_decided: 2 }
    s.examples = examples.sort((a, b) => order[a.verdict] - order[b.verdict]).slice(0, EXAMPLES)
    out.sessions.push(s)
    out.items += s.items
    out.asDecided += s.asDecided
    out.otherwise += s.otherwise
    out.undecided += s.undecided
  }
  return out
}
