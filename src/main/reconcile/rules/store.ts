// A profile's rules, kept in the cache in the order shown: each saved change is a new version (the old ones kept as they were), and a rule is applied only once the user enables it.
import type Database from 'better-sqlite3'
import { AppError } from '../../errors'
import { checkRule, ruleSchema, type Rule, type StoredRule } from '../../../shared/rules'
import type { SessionInfo } from '../../../shared/reconcile'

interface RuleRow {
  name: string
  position: number
  version: number
  enabled: number
  rule: string
  updated_at: string
  updated_by: string
}

const stored = (row: RuleRow): StoredRule => ({
  rule: ruleSchema.parse(JSON.parse(row.rule)),
  position: row.position,
  version: row.version,
  enabled: row.enabled === 1,
  updatedAt: row.updated_at,
  updatedBy: row.updated_by
})

/** The rule file's JSON as a rule, or a refusal that names each problem by its path in the file. */
export function ruleFromJson(json: unknown, file: string): Rule {
  const checked = checkRule(json)
  if (checked.ok) return checked.rule
  throw new AppError('invalid_rule', `${file} is not a rule Ledgerline can apply: ${checked.problems.join('; ')}`)
}

export class RuleStore {
  constructor(
    private readonly db: Database.Database,
    private readonly options: { now?: () => Date; user?: string } = {}
  ) {}

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString()
  }

  private user(): string {
    return this.options.user ?? 'unknown'
  }

  /** The profile's rules in the order they are tried. */
  list(profileId: string): StoredRule[] {
    const rows = this.db
      .prepare('select name, position, version, enabled, rule, updated_at, updated_by from rules where profile_id = ? order by position')
      .all(profileId) as RuleRow[]
    return rows.map(stored)
  }

  /** One rule by its name, or a refusal that lists the names there are. */
  get(profileId: string, name: string): StoredRule {
    const row = this.db
      .prepare('select name, position, version, enabled, rule, updated_at, updated_by from rules where profile_id = ? and name = ?')
      .get(profileId, name) as RuleRow | undefined
    if (row) return stored(row)
    const names = this.list(profileId).map((r) => r.rule.name)
    throw new AppError(
      'rule_not_found',
      `There is no rule "${name}"${names.length > 0 ? `; the rules are ${names.join(', ')}` : '; the profile has no rules yet'}.`
    )
  }

  /** A version of a rule as it was saved. */
  version(profileId: string, name: string, version: number): Rule | null {
    const json = this.db
      .prepare('select rule from rule_versions where profile_id = ? and name = ? and version = ?')
      .pluck()
      .get(profileId, name, version) as string | undefined
    return json === undefined ? null : ruleSchema.parse(JSON.parse(json))
  }

  /**
   * Saves a rule: a new one goes last, disabled (it is tried before it is enabled); one of a name the
   * profile has becomes its next version, keeping its place and whether it is enabled; the same rule
   * saved again changes nothing.
   */
  save(profileId: string, rule: Rule): { stored: StoredRule; change: 'added' | 'new version' | 'unchanged' } {
    const json = JSON.stringify(rule)
    return this.db.transaction(() => {
      const old = this.db.prepare('select version, rule from rules where profile_id = ? and name = ?').get(profileId, rule.name) as
        { version: number; rule: string } | undefined
      if (old && old.rule === json) return { stored: this.get(profileId, rule.name), change: 'unchanged' as const }
      const at = this.now()
      // A rule removed and made again goes on from its last version: every version stays as it was saved.
      const last = this.db
        .prepare('select max(version) from rule_versions where profile_id = ? and name = ?')
        .pluck()
        .get(profileId, rule.name) as number | null
      const version = Math.max(old?.version ?? 0, last ?? 0) + 1
      if (old)
        this.db
          .prepare('update rules set version = ?, rule = ?, updated_at = ?, updated_by = ? where profile_id = ? and name = ?')
          .run(version, json, at, this.user(), profileId, rule.name)
      else {
        const last = this.db.prepare('select max(position) from rules where profile_id = ?').pluck().get(profileId) as number | null
        this.db
          .prepare(
            'insert into rules (profile_id, name, position, version, enabled, rule, updated_at, updated_by) values (?, ?, ?, ?, 0, ?, ?, ?)'
          )
          .run(profileId, rule.name, (last ?? 0) + 1, version, json, at, this.user())
      }
      this.db
        .prepare('insert into rule_versions (profile_id, name, version, rule, saved_at, saved_by) values (?, ?, ?, ?, ?, ?)')
        .run(profileId, rule.name, version, json, at, this.user())
      return { stored: this.get(profileId, rule.name), change: old ? ('new version' as const) : ('added' as const) }
    })()
  }

  /**
   * Moves a rule to place `to` (1 = tried first; past the end = last): the rules between shift by one,
   * and the order stays 1, 2, 3… Its version stays (where a rule is tried is not what it says).
   */
  move(profileId: string, name: string, to: number): StoredRule[] {
    this.get(profileId, name)
    return this.db.transaction(() => {
      const names = this.list(profileId)
        .map((r) => r.rule.name)
        .filter((n) => n !== name)
      names.splice(Math.max(0, Math.min(names.length, Math.trunc(to) - 1)), 0, name)
      const at = this.now()
      const place = this.db.prepare(
        'update rules set position = ?, updated_at = ?, updated_by = ? where profile_id = ? and name = ? and position <> ?'
      )
      names.forEach((n, i) => place.run(i + 1, at, this.user(), profileId, n, i + 1))
      return this.list(profileId)
    })()
  }

  /**
   * Removes a rule from the profile's rules (its versions stay: the items and events it decided name
   * them); the others close up the order. What it decided stays decided.
   */
  remove(profileId: string, name: string): StoredRule[] {
    this.get(profileId, name)
    return this.db.transaction(() => {
      this.db.prepare('delete from rules where profile_id = ? and name = ?').run(profileId, name)
      const place = this.db.prepare('update rules set position = ? where profile_id = ? and name = ? and position <> ?')
      this.list(profileId).forEach((r, i) => place.run(i + 1, profileId, r.rule.name, i + 1))
      return this.list(profileId)
    })()
  }

  /** Enables or disables a rule by its name (its version stays: applying it is not a change of what it says). */
  setEnabled(profileId: string, name: string, enabled: boolean): StoredRule {
    this.get(profileId, name)
    this.db
      .prepare('update rules set enabled = ?, updated_at = ?, updated_by = ? where profile_id = ? and name = ?')
      .run(enabled ? 1 : 0, this.now(), this.user(), profileId, name)
    return this.get(profileId, name)
  }
}

/**
 * The rules a session's runs and decisions apply: its profile's enabled ones, in the order shown; none for a replayed team
 * session (its workspace decides it, through the events every member replays).
 */
export function sessionRules(db: Database.Database, session: Pick<SessionInfo, 'profileId' | 'team'>): StoredRule[] {
  if (session.team?.replay === true) return []
  return new RuleStore(db).list(session.profileId).filter((r) => r.enabled)
}
