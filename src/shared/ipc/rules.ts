// The rules domain of the IPC contract: the active profile's rules listed, those proposed from what the user confirmed, one saved (a change is its next version), tried on a session and the last closed ones, enabled or disabled, and one drafted from an item's line.
import { z } from 'zod'
import type { ProposedRule } from '../learning'
import { ruleSchema, type Rule, type RulePreview, type StoredRule } from '../rules'
import { call, id, noArgs } from './define'

export const rulesCalls = {
  /** The active profile's rules, in the order they are tried. */
  'rules:list': call<StoredRule[]>()(noArgs),
  /** Saves a rule: a new one last and not enabled; a changed one as its next version. */
  'rules:save': call<{ stored: StoredRule; change: 'added' | 'new version' | 'unchanged' }>()(z.strictObject({ rule: ruleSchema })),
  /** What the rule would do in the session and the profile's last closed sessions. */
  'rules:preview': call<RulePreview>()(z.strictObject({ sessionId: id, rule: ruleSchema })),
  /** Moves a rule to a place in the order (1: tried first); the rules in their new order. */
  'rules:move': call<StoredRule[]>()(z.strictObject({ name: z.string().min(1).max(60), to: z.number().int().min(1).max(100_000) })),
  /** Removes a rule (what it decided stays; its versions are kept); the rules left, in order. */
  'rules:remove': call<StoredRule[]>()(z.strictObject({ name: z.string().min(1).max(60) })),
  'rules:setEnabled': call<StoredRule>()(z.strictObject({ name: z.string().min(1).max(60), enabled: z.boolean() })),
  /** Rules proposed from what the user confirmed, each pattern past the gate with its figures (never saved or enabled by this). */
  'rules:proposed': call<ProposedRule[]>()(noArgs),
  /** A rule drafted from the item's line, to read, change and try before saving. */
  'rules:draft': call<Rule>()(z.strictObject({ sessionId: id, itemKey: z.string().min(1).max(20_000) }))
} as const
