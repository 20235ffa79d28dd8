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

/** A line a rule may decide in a run: one line neither resolved nor decided, alone in the file (a pairing rule: or only suggested with a record). */
export function openForRule(item: ReconItem, pairing: boolean): boolean {
  if (item.resolved || item.decision !== null || item.file.length !== 1) return false
  return item.outcome === 'only_in_file' || (pairing && (item.outcome === 'suggested' || item.outcome === 'ambiguous'))
}

/** A record a pairing rule may take: one nobody has paired (alone at the provider, or only suggested). */
export function freeForPairing(item: ReconItem): boolean {
  return (
    !item.resolved &&
    item.decision === null &&
    (item.outcome === 'only_in_provider' ||
      item.outcome === 'pending_at_provider' ||
      item.outcome === 'suggested' ||
      item.outcome === 'ambiguous')
  )
}

const recordName = (p: { reference: string | null; serviceReference?: string | null; name: string | null }): string =>
  [p.reference ?? p.serviceReference, p.name].filter(Boolean).join(', ') || 'a record with no reference'

/** The reason codes a line left out carries: by a rule, or by the user's "leave out" of a line not read. */
const LEFT_OUT = new Set(['left_out', 'excluded'])

/**
 * How the rule's act compares with the item: with what the user (or a rule) decided, or, on an open
 * line a run would hand it, what it would do; null where it would not act (the engine paired the line
 * itself, an outcome no rule touches, or a pairing that finds no single free record: `leftOpen` says why).
 */
function verdictOf(
  rule: Rule,
  item: ReconItem,
  line: RuleSubject,
  records: RecordFinder,
  free: ReadonlySet<string>
): { verdict: RuleVerdict; now: string } | { leftOpen: string } | null {
  const action = rule.action
  const byHand = item.decision !== null && item.provider.length > 0
  if (byHand || item.resolved) {
    const state = byHand
      ? `paired with ${item.provider.map(recordName).join('; ')}`
      : `resolved${item.reasonCode ? ` (${item.reasonCode})` : ''}`
    switch (action.type) {
      case 'classify':
        return !byHand && item.reasonCode === action.reasonCode
          ? { verdict: 'as_decided', now: state }
          : { verdict: 'otherwise', now: `${state}; the rule would resolve it as ${action.reasonCode}` }
      case 'leave_out':
        return !byHand && LEFT_OUT.has(item.reasonCode ?? '')
          ? { verdict: 'as_decided', now: state }
          : { verdict: 'otherwise', now: `${state}; the rule would leave it out` }
      case 'pair': {
        const part = pairingPart(action, line)
        const named = new Set(part === null ? [] : records.find(part))
        return byHand && item.provider.some((p) => named.has(p.id))
          ? { verdict: 'as_decided', now: state }
          : {
              verdict: 'otherwise',
              now: `${state}; the rule would pair it with ${part === null ? 'nothing (its pattern finds no part)' : `the record that has "${part}"`}`
            }
      }
    }
  }
  if (!openForRule(item, action.type === 'pair')) return null
  switch (action.type) {
    case 'classify':
      return { verdict: 'undecided', now: `open; the rule would resolve it as ${action.reasonCode}` }
    case 'leave_out':
      return { verdict: 'undecided', now: 'open; the rule would leave it out' }
    case 'pair': {
      const part = pairingPart(action, line)
      if (part === null) return { leftOpen: 'its pattern finds no part in the line' }
      const named = records.find(part).filter((id) => free.has(id))
      if (named.length !== 1)
        return {
          leftOpen:
            named.length === 0 ? `no free record has "${part}"` : `${named.length} free records have "${part}": a rule pairs only with one`
        }
      const record = records.record(named[0] as string)
      return {
        verdict: 'undecided',
        now: `open; the rule would pair it with ${record ? recordName(record) : `the record that has "${part}"`}`
      }
    }
  }
}

/** The rule tried on each session's items: the first line of an item the rule holds for decides it (as a rule is applied). */
export function previewRule(rule: Rule, sessions: readonly { session: SessionInfo; items: Iterable<ReconItem> }[]): RulePreview {
  const out: RulePreview = { rule: rule.name, sessions: [], items: 0, asDecided: 0, otherwise: 0, undecided: 0, leftOpen: 0 }
  for (const { session, items } of sessions) {
    const list = [...items]
    // The session's records, by the field a pairing rule finds them by; those free for a pairing.
    const records = new RecordFinder(rule.action.type === 'pair' ? rule.action.with : 'reference')
    const free = new Set<string>()
    if (rule.action.type === 'pair')
      for (const item of list)
        for (const p of item.provider) {
          records.add(p)
          if (freeForPairing(item)) free.add(p.id)
        }
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
      leftOpen: 0,
      examples: []
    }
    const examples: RulePreviewItem[] = []
    for (const item of list) {
      const line = item.file.find((f) => ruleHolds(rule, ruleSubject(f, item)))
      if (!line) continue
      const said = verdictOf(rule, item, ruleSubject(line, item), records, free)
      if (said === null) continue
      const shown =
        `${line.date} ${moneyText(line.amountMinor, line.currency)} ${[line.reference, line.description].filter(Boolean).join(' ')}`.trim()
      if ('leftOpen' in said) {
        s.leftOpen++
        examples.push({
          itemKey: shortItemKey(item.key),
          verdict: 'left_open',
          line: shown,
          now: `open; it would stay open: ${said.leftOpen}`
        })
        continue
      }
      s.items++
      if (said.verdict === 'as_decided') s.asDecided++
      else if (said.verdict === 'otherwise') s.otherwise++
      else s.undecided++
      examples.push({ itemKey: shortItemKey(item.key), verdict: said.verdict, line: shown, now: said.now })
    }
    const order: Record<RulePreviewItem['verdict'], number> = { otherwise: 0, left_open: 1, undecided: 2, as_decided: 3 }
    s.examples = examples.sort((a, b) => order[a.verdict] - order[b.verdict]).slice(0, EXAMPLES)
    out.sessions.push(s)
    out.items += s.items
    out.asDecided += s.asDecided
    out.otherwise += s.otherwise
    out.undecided += s.undecided
    out.leftOpen += s.leftOpen
  }
  return out
}
