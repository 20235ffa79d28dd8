// Whether a session's stored items leave no line an enabled rule would decide, kept per mirror so a decision after a run, or after one made in place, need not read every open line again to know it.
import type { StoredRule } from '../../../shared/rules'
import type { MirroredItems } from '../items'

/** Per mirror: the enabled rules (names and versions, in order) and the token of the change after which its items were settled under them. */
const SETTLED = new WeakMap<MirroredItems, { inForce: string; token: string }>()

/** What stands for the enabled rules in SETTLED: their names and versions, in the order shown. */
export function rulesInForce(enabled: readonly StoredRule[]): string {
  return JSON.stringify(enabled.map((r) => [r.rule.name, r.version]))
}

/**
 * Notes that the mirror's items, as its last change left them, leave no line the enabled rules would decide (a run gave
 * the rules what it left open until they decided nothing more; a decision in place gave them what it made).
 */
export function markRulesSettled(mirror: MirroredItems, enabled: readonly StoredRule[]): void {
  if (mirror.token !== null) SETTLED.set(mirror, { inForce: rulesInForce(enabled), token: mirror.token })
}

/** Whether the mirror's items were settled under these rules, and nothing changed them since. */
export function rulesKnownSettled(mirror: MirroredItems, enabled: readonly StoredRule[]): boolean {
  const settled = SETTLED.get(mirror)
  return settled !== undefined && settled.token === mirror.token && settled.inForce === rulesInForce(enabled)
}

/**
 * Makes a change that leaves no line an enabled rule would decide (the caller checked each item it changed), keeping
 * the mirror settled across it when it was before.
 */
export function keepingSettled<T>(mirror: MirroredItems | null, change: () => T): T {
  const settled = mirror === null ? undefined : SETTLED.get(mirror)
  const was = settled !== undefined && settled.token === mirror?.token
  const out = change()
  // The mirror is sealed anew with the change's totals (a change rolled back leaves it unsealed: null).
  if (was && mirror !== null && mirror.token !== null) SETTLED.set(mirror, { inForce: settled.inForce, token: mirror.token })
  return out
}
