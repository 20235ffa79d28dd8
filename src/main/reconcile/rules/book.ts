// Where a profile's rules are kept: in the cache for a profile of this computer, in its team workspace for the profile a workspace's shared sessions are replayed under; the rules' calls and the CLI use either alike.
import type { Rule, StoredRule } from '../../../shared/rules'
import { AppError } from '../../errors'
import type { RuleStore } from './store'

export type RuleChange = 'added' | 'new version' | 'unchanged'

/** One set of rules, in the order they are tried. */
export interface RuleBook {
  /** Whose rules these are, in words: the profile's name, or the workspace's. */
  readonly owner: string
  list(): Promise<StoredRule[]>
  save(rule: Rule): Promise<{ stored: StoredRule; change: RuleChange }>
  setEnabled(name: string, enabled: boolean): Promise<StoredRule>
  move(name: string, to: number): Promise<StoredRule[]>
  remove(name: string): Promise<StoredRule[]>
}

/** What reconcile asks of the team workspace for the rules of its shared sessions: team implements it, so reconcile never imports team. */
export interface WorkspaceRules {
  /** The rules of the workspace HOST:PORT/DATABASE, refused when this computer is not connected to it. */
  ruleBook(workspace: string): RuleBook
}

/** A profile's own rules, kept in the cache. */
export function profileRuleBook(store: RuleStore, profileId: string, owner: string): RuleBook {
  return {
    owner,
    list: async () => store.list(profileId),
    save: async (rule) => store.save(profileId, rule),
    setEnabled: async (name, enabled) => store.setEnabled(profileId, name, enabled),
    move: async (name, to) => store.move(profileId, name, to),
    remove: async (name) => store.remove(profileId, name)
  }
}

/** The rule of that name in a list, or a refusal that lists the names there are. */
export function ruleNamed(rules: readonly StoredRule[], name: string, owner: string): StoredRule {
  const found = rules.find((r) => r.rule.name === name)
  if (found) return found
  const names = rules.map((r) => r.rule.name)
  throw new AppError(
    'rule_not_found',
    `There is no rule "${name}" in ${owner}${names.length > 0 ? `; the rules are ${names.join(', ')}` : ': it has no rules yet'}.`
  )
}
