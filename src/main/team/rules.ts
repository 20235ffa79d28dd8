// The workspace's rules, which decide its shared sessions alike on every member's computer: read, saved (a change is the rule's next version), enabled, moved and removed through the workspace's functions, and applied by a preparer's client as decisions sent through the workspace.
import type Database from 'better-sqlite3'
import type pg from 'pg'
import { checkRule, type Rule, type StoredRule } from '../../shared/rules'
import { AppError } from '../errors'
import { sessionHead } from '../reconcile/audit'
import { ReconService } from '../reconcile/service'
import { ruleNamed, type RuleBook, type RuleChange } from '../reconcile/rules/book'
import { ruleApplications, ruledLines } from '../reconcile/rules/applications'
import { rulesInForce } from '../reconcile/rules/settled'
import type { AuditPayloads } from '../../shared/reconcile-events'
import type { Replica, TeamReplicas } from './replicas'

interface RuleRow {
  name: string
  place: number
  version: number
  enabled: boolean
  rule: unknown
  updated_at: string
  updated_by: string
}

/** The workspace's rules in the order they are tried; one this Ledgerline cannot read is refused by name (a rule skipped would change which rule comes first). */
export async function workspaceRules(client: pg.Client): Promise<StoredRule[]> {
  const { rows } = await client.query<RuleRow>(
    'select name, place, version, enabled, rule, updated_at, updated_by from ledgerline.rule_list()'
  )
  return rows.map((row) => {
    const checked = checkRule(row.rule)
    if (!checked.ok)
      throw new AppError(
        'invalid_rule',
        `The workspace's rule "${row.name}" (version ${row.version}) is not one this Ledgerline reads: ${checked.problems.join('; ')}. Update Ledgerline, or save the rule again.`
      )
    return {
      rule: checked.rule,
      position: row.place,
      version: row.version,
      enabled: row.enabled,
      updatedAt: row.updated_at,
      updatedBy: row.updated_by
    }
  })
}

/** Runs one piece of work on a connection to the workspace. */
export type Exchange = <T>(work: (client: pg.Client) => Promise<T>) => Promise<T>

/** The workspace's rules as a rule book: each change made by the workspace's functions, which check that the caller is a preparer or an admin. */
export function workspaceRuleBook(exchange: Exchange, workspace: string): RuleBook {
  const owner = `the team workspace ${workspace}`
  return {
    owner,
    list: () => exchange(workspaceRules),
    save: (rule: Rule) =>
      exchange(async (client) => {
        const { rows } = await client.query<{ version: number; change: RuleChange }>(
          'select version, change from ledgerline.rule_save($1::jsonb)',
          [JSON.stringify(rule)]
        )
        const change = rows[0]?.change ?? 'unchanged'
        return { stored: ruleNamed(await workspaceRules(client), rule.name, owner), change }
      }),
    setEnabled: (name, enabled) =>
      exchange(async (client) => {
        await client.query('select ledgerline.rule_set_enabled($1, $2)', [name, enabled])
        return ruleNamed(await workspaceRules(client), name, owner)
      }),
    move: (name, to) =>
      exchange(async (client) => {
        await client.query('select ledgerline.rule_move($1, $2)', [name, to])
        return workspaceRules(client)
      }),
    remove: (name) =>
      exchange(async (client) => {
        await client.query('select ledgerline.rule_remove($1)', [name])
        return workspaceRules(client)
      })
  }
}

/**
 * The workspace's enabled rules applied to a shared session this member prepares, as a run applies a
 * profile's rules to its own: each application a decision sent through the workspace like the
 * member's own, so every member's replay holds it, naming the rule and its version. A line a rule
 * decided once is never decided by a rule again. How many were sent.
 */
export async function applyWorkspaceRules(
  client: pg.Client,
  replicas: TeamReplicas,
  replica: Replica,
  rules: readonly StoredRule[]
): Promise<number> {
  if (replica.readOnly !== null || replica.state !== 'open' || !rules.some((r) => r.enabled)) return 0
  const applied = workspaceRuleApplications(replicas.db, replica.sessionId, rules)
  if (applied.length === 0) return 0
  for (const payload of applied) replicas.queueBody(replica, { kind: 'rule', payload })
  const pushed = await replicas.push(client)
  await replicas.pull(client, replicas.require(replica.sharedId))
  return applied.length - pushed.conflicts.filter((c) => c.sessionId === replica.sessionId).length
}

/** Per cache, each session's head (the hash of its last event) and the rules in force when they last decided nothing of it. */
const SETTLED_AT = new WeakMap<Database.Database, Map<string, string>>()

/** How many times the workspace's rules were given a session's items (the tests count that a sync ring with nothing new spares it). */
export const workspaceRulesAsked = { times: 0 }

/**
 * What the enabled rules decide of a session's items (every item read), asked again only once its events or the rules
 * changed since they last decided nothing: what they decide follows from the items, which only events change (a
 * decision, a run, each kept as an event), the lines ruled before and the rules. A sync ring of a preparer's client
 * with nothing new then reads none of a session's items.
 */
export function workspaceRuleApplications(db: Database.Database, sessionId: string, rules: readonly StoredRule[]): AuditPayloads['rule'][] {
  const at = `${sessionHead(db, sessionId) ?? ''}\n${rulesInForce(rules.filter((r) => r.enabled))}`
  const settled = SETTLED_AT.get(db) ?? new Map<string, string>()
  SETTLED_AT.set(db, settled)
  if (settled.get(sessionId) === at) return []
  workspaceRulesAsked.times++
  const service = new ReconService(db)
  const applied = ruleApplications(rules, [...service.allItems(sessionId)], ruledLines(service.events(sessionId)))
  if (applied.length === 0) settled.set(sessionId, at)
  else settled.delete(sessionId)
  return applied
}
