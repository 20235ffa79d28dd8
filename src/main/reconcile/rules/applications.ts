// The profile's enabled rules applied in a run: for each line still open and never decided by a rule before, the first enabled rule (in the order shown) that holds for it decides it, as an audit event naming the rule and its version.
import { pairingPart, RecordFinder, ruleHolds, type StoredRule } from '../../../shared/rules'
import { pairKey, type ReconItem } from '../../../shared/reconcile'
import type { AuditEntry, AuditPayloads } from '../../../shared/reconcile-events'
import { compareLeads, leadOf, type Lead } from '../items'
import { freeForPairing, openForRule, ruleSubject } from './preview'

/**
 * What the enabled rules decide in this run. A line a rule decided once (even if the user took it back
 * since) is never decided by a rule again: the user's word stands. A pairing rule pairs only when
 * exactly one free record has the part it finds; a record is paired once. `ruled`: the lines a rule decided before (ruledLines).
 */
export function ruleApplications(
  rules: readonly StoredRule[],
  items: readonly ReconItem[],
  ruled: ReadonlySet<string>
): AuditPayloads['rule'][] {
  const enabled = rules.filter((r) => r.enabled)
  if (enabled.length === 0) return []
  // The free records, by each field a pairing rule finds them by.
  const finders = { reference: new RecordFinder('reference'), customer: new RecordFinder('customer') }
  if (enabled.some((r) => r.rule.action.type === 'pair'))
    for (const item of items) if (freeForPairing(item)) for (const p of item.provider) for (const f of Object.values(finders)) f.add(p)
  // The lines a rule decides, in the order the items stand (items.ts), whatever order they come in.
  const decided: { item: ReconItem; stored: StoredRule; lead: Lead }[] = []
  for (const item of items) {
    const stored = ruleFor(enabled, item, ruled)
    if (stored) decided.push({ item, stored, lead: leadOf(item) })
  }
  decided.sort((a, b) => compareLeads(a.lead, b.lead))
  const taken = new Set<string>()
  const out: AuditPayloads['rule'][] = []
  for (const { item, stored } of decided) {
    const action = stored.rule.action
    if (action.type !== 'pair') {
      out.push(applicationOf(item, stored, null))
      continue
    }
    const part = linePart(item, action)
    const named = part === null ? [] : finders[action.with].find(part)
    // Exactly one not taken yet: never so when more are named than were taken, plus one (a name many customers share).
    const found = named.length > taken.size + 1 ? [] : named.filter((id) => !taken.has(id))
    if (found.length !== 1) continue
    const record = found[0] as string
    taken.add(record)
    out.push(applicationOf(item, stored, record))
  }
  return out
}

/** The part of the item's line a pairing rule finds its record by (pairingPart), if any. */
export function linePart(item: ReconItem, action: Extract<StoredRule['rule']['action'], { type: 'pair' }>): string | null {
  return pairingPart(action, ruleSubject(item.file[0] as ReconItem['file'][number], item))
}

/** The event of a rule deciding the item's line (`record`: the one a pairing takes; null for a rule that decides a line by itself). */
export function applicationOf(item: ReconItem, stored: StoredRule, record: string | null): AuditPayloads['rule'] {
  const line = item.file[0] as ReconItem['file'][number]
  const { rule, version } = stored
  const base = { name: rule.name, version, fileIds: [line.id] }
  switch (rule.action.type) {
    case 'classify':
      return { ...base, itemKey: pairKey([], [line.id]), providerIds: [], action: 'classify', reasonCode: rule.action.reasonCode, note: '' }
    case 'leave_out':
      return {
        ...base,
        itemKey: pairKey([], [line.id]),
        providerIds: [],
        action: 'leave_out',
        reasonCode: 'left_out',
        note: rule.action.reason
      }
    case 'pair':
      if (record === null) throw new Error('a pairing with no record')
      return { ...base, itemKey: pairKey([record], [line.id]), providerIds: [record], action: 'pair', reasonCode: '', note: '' }
  }
}

/**
 * Whether a run would have an enabled rule decide the item's line (a pairing rule: may, as whether exactly one free
 * record has the part it finds is the whole session's to say). `events`: the session's, which say the lines ruled before.
 */
export function ruleMayDecide(rules: readonly StoredRule[], item: ReconItem, events: () => readonly AuditEntry[]): boolean {
  const enabled = rules.filter((r) => r.enabled)
  if (enabled.length === 0 || !ruleFor(enabled, item, new Set())) return false
  return ruleFor(enabled, item, ruledLines(events())) !== null
}

/** The lines a rule decided before, by the session's events (even if the user took it back since: the user's word stands). */
export function ruledLines(events: readonly AuditEntry[]): Set<string> {
  return new Set(events.flatMap((e) => (e.kind === 'rule' ? e.payload.fileIds : [])))
}

/** The first enabled rule (in the order shown) that decides the item's line in a run, if any: the line open, not read by hand or ruled before. */
export function ruleFor(enabled: readonly StoredRule[], item: ReconItem, ruled: ReadonlySet<string>): StoredRule | null {
  if (!openForRule(item, true)) return null
  const line = item.file[0] as ReconItem['file'][number]
  if (ruled.has(line.id) || line.notRead !== undefined) return null
  const stored = enabled.find((r) => ruleHolds(r.rule, ruleSubject(line, item)))
  if (!stored || (stored.rule.action.type !== 'pair' && !openForRule(item, false))) return null
  return stored
}
