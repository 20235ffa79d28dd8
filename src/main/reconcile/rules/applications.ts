// The profile's enabled rules applied in a run: for each line still open and never decided by a rule before, the first enabled rule (in the order shown) that holds for it decides it, as an audit event naming the rule and its version.
import { pairingPart, RecordFinder, ruleHolds, type StoredRule } from '../../../shared/rules'
import { pairKey, type ReconItem } from '../../../shared/reconcile'
import type { AuditEntry, AuditPayloads } from '../../../shared/reconcile-events'
import { freeForPairing, openForRule, ruleSubject } from './preview'

/**
 * What the enabled rules decide in this run. A line a rule decided once (even if the user took it back
 * since) is never decided by a rule again: the user's word stands. A pairing rule pairs only when
 * exactly one free record has the part it finds; a record is paired once.
 */
export function ruleApplications(
  rules: readonly StoredRule[],
  items: readonly ReconItem[],
  events: readonly AuditEntry[]
): AuditPayloads['rule'][] {
  const enabled = rules.filter((r) => r.enabled)
  if (enabled.length === 0) return []
  const ruled = new Set(events.flatMap((e) => (e.kind === 'rule' ? e.payload.fileIds : [])))
  // The free records, by each field a pairing rule finds them by.
  const finders = { reference: new RecordFinder('reference'), customer: new RecordFinder('customer') }
  if (enabled.some((r) => r.rule.action.type === 'pair'))
    for (const item of items) if (freeForPairing(item)) for (const p of item.provider) for (const f of Object.values(finders)) f.add(p)
  const taken = new Set<string>()
  const out: AuditPayloads['rule'][] = []
  for (const item of items) {
    if (!openForRule(item, true)) continue
    const line = item.file[0] as ReconItem['file'][number]
    if (ruled.has(line.id) || line.notRead !== undefined) continue
    const subject = ruleSubject(line, item)
    const stored = enabled.find((r) => ruleHolds(r.rule, subject))
    if (!stored || (stored.rule.action.type !== 'pair' && !openForRule(item, false))) continue
    const { rule, version } = stored
    const base = { name: rule.name, version, fileIds: [line.id] }
    switch (rule.action.type) {
      case 'classify':
        out.push({
          ...base,
          itemKey: pairKey([], [line.id]),
          providerIds: [],
          action: 'classify',
          reasonCode: rule.action.reasonCode,
          note: ''
        })
        break
      case 'leave_out':
        out.push({
          ...base,
          itemKey: pairKey([], [line.id]),
          providerIds: [],
          action: 'leave_out',
          reasonCode: 'left_out',
          note: rule.action.reason
        })
        break
      case 'pair': {
        const part = pairingPart(rule.action, subject)
        const found = part === null ? [] : finders[rule.action.with].find(part).filter((id) => !taken.has(id))
        if (found.length !== 1) continue
        const record = found[0] as string
        taken.add(record)
        out.push({ ...base, itemKey: pairKey([record], [line.id]), providerIds: [record], action: 'pair', reasonCode: '', note: '' })
        break
      }
    }
  }
  return out
}
