// The rules:* calls: the active profile's rules listed (and those proposed from what the user confirmed), saved, tried on a session and the last closed ones, enabled, and drafted from an item's line.
import type Database from 'better-sqlite3'
import { chargeKind, type ReconItem } from '../../../shared/reconcile'
import { ruleDraftFromLine, type Rule } from '../../../shared/rules'
import { AppError } from '../../errors'
import type { HandlerMap } from '../../ipc/router'
import type { ActiveProfile } from '../../profiles/active'
import { osUserName } from '../audit'
import { ReconService } from '../service'
import { proposedRules } from '../learning/proposals'
import { previewRule, ruleSubject } from './preview'
import { profileRuleBook, type RuleBook, type WorkspaceRules } from './book'
import { ruleFromJson, RuleStore } from './store'

/** How many of the profile's last closed sessions a preview tries the rule on, besides the one named. */
export const PREVIEW_CLOSED_SESSIONS = 3

/** What the rules' calls use, wired by the host. */
export interface RuleServices {
  db: Database.Database
  active: ActiveProfile
  /** The team workspace, whose rules decide the sessions replayed from it. */
  workspaces: WorkspaceRules
}

/** The rule tried on the session and the profile's last closed sessions before it (the most recent first). */
export function previewOnSessions(service: ReconService, rule: Rule, sessionId: string, profileId: string) {
  const session = service.sessionOfProfile(sessionId, profileId)
  const closed = service
    .sessions(profileId)
    .filter((s) => s.closedAt !== null && s.id !== session.id)
    .sort((a, b) => (a.to < b.to ? 1 : a.to > b.to ? -1 : 0))
    .slice(0, PREVIEW_CLOSED_SESSIONS)
  return previewRule(
    rule,
    [session, ...closed].map((s) => ({ session: s, items: service.allItems(s.id) }))
  )
}

/** A rule drafted from the item's one line (what its words read as: a bank charge, a levy, else another known item). */
export function draftFromItem(item: ReconItem | null): Rule {
  const line = item?.file.length === 1 ? item.file[0] : undefined
  if (!item || !line)
    throw new AppError('invalid_rule', 'A rule is drafted from one statement line: choose an item that holds exactly one line.')
  const kind = chargeKind([line.description, line.reference, line.counterparty].filter(Boolean).join(' '))
  return ruleDraftFromLine(
    ruleSubject(line, item),
    kind === 'levies' || kind === 'stamp_duty' ? 'levy' : kind === null ? null : 'bank_charge'
  )
}

export function ruleHandlers(ctx: RuleServices): HandlerMap {
  const service = new ReconService(ctx.db)
  const store = new RuleStore(ctx.db, { user: osUserName() })
  const profile = (): string => ctx.active.current().id
  // The profile a workspace's sessions are replayed under is decided by the workspace's rules; any other by its own.
  const book = (): RuleBook => {
    const current = ctx.active.current()
    return current.workspace === null ? profileRuleBook(store, current.id, current.name) : ctx.workspaces.ruleBook(current.workspace)
  }
  return {
    'rules:list': () => book().list(),
    'rules:save': ({ rule }) => book().save(ruleFromJson(rule, 'The rule')),
    'rules:preview': ({ sessionId, rule }) => previewOnSessions(service, ruleFromJson(rule, 'The rule'), sessionId, profile()),
    'rules:setEnabled': ({ name, enabled }) => book().setEnabled(name, enabled),
    'rules:move': ({ name, to }) => book().move(name, to),
    'rules:remove': ({ name }) => book().remove(name),
    'rules:proposed': async () => proposedRules(ctx.db, profile(), await book().list()),
    'rules:draft': ({ sessionId, itemKey }) => {
      service.sessionOfProfile(sessionId, profile())
      return draftFromItem(service.item(sessionId, itemKey))
    }
  }
}
