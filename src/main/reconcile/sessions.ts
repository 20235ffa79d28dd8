// Reconciliation sessions: created over a profile's records, a period and statements, their settings, reading them back, closing and reopening.
import { randomUUID } from 'node:crypto'
import {
  checkReconSettings,
  DEFAULT_SETTINGS,
  RECON_SOURCES,
  storedSettings,
  type ReconSettings,
  type ReconSource,
  type SessionInfo
} from '../../shared/reconcile'
import { isTimeZone } from '../../shared/time'
import { AppError } from '../errors'
import { GENESIS, sessionEvents, type AuditEvent } from './audit'
import type { ReconContext } from './context'
import { foldEvents } from './fold'
import type { SessionItems } from './items'
import type { SourceFilter } from './provider-side'
import type { ReportInput } from './totals'
import type { ClosedEvidence } from '../../shared/reconcile-events'
import type { Statements } from './statement-store'

export interface NewSession {
  profileId: string
  name: string
  source: ReconSource
  filter?: SourceFilter | undefined
  from: string
  to: string
  timeZone: string
  settings?: Partial<ReconSettings> | undefined
  fileIds: string[]
}

interface SessionRow {
  id: string
  profile_id: string
  name: string
  source: ReconSource
  source_filter: string
  period_from: string
  period_to: string
  time_zone: string
  settings: string
  created_at: string
  created_by: string
  last_run_at: string | null
  closed_at: string | null
  closed_by: string | null
  summary: string | null
}

/** Reconcile's tables that hold a profile's rows, for its removal: the sessions (with all they hold) before the statements they use. */
export const RECON_PROFILE_TABLES = ['recon_sessions', 'recon_files'] as const

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** Settings that pass the one settings check, or the check's words as an invalid_settings error. */
export function checkedSettings(settings: ReconSettings): ReconSettings {
  const checked = checkReconSettings({ ...settings })
  if (!checked.ok) throw new AppError('invalid_settings', checked.message)
  return checked.settings
}

export class Sessions {
  constructor(
    private readonly ctx: ReconContext,
    private readonly statements: Statements,
    private readonly items: SessionItems
  ) {}

  create(input: NewSession): SessionInfo {
    if (!RECON_SOURCES.includes(input.source))
      throw new AppError('invalid_source', `The provider side must be one of ${RECON_SOURCES.join(', ')}.`)
    if (!DAY.test(input.from) || !DAY.test(input.to) || input.from > input.to)
      throw new AppError(
        'invalid_period',
        `The period must be two days YYYY-MM-DD, the first not after the second (got ${input.from} to ${input.to}).`
      )
    if (!isTimeZone(input.timeZone)) throw new AppError('invalid_time_zone', `"${input.timeZone}" is not a time zone.`)
    const settings = checkedSettings({ ...DEFAULT_SETTINGS, ...(input.settings ?? {}) })
    const filter = input.filter ?? {}
    if (input.source === 'payouts' && (filter.bulkFileIds ?? []).length === 0 && (filter.references ?? []).length === 0) {
      throw new AppError('invalid_source', 'A payouts session needs the bulk files or transfer references it reconciles.')
    }
    for (const fileId of input.fileIds) this.statements.ofProfile(fileId, input.profileId)
    this.periodHoldsLines(input.from, input.to, input.fileIds)
    const id = randomUUID()
    const at = this.ctx.now().toISOString()
    this.ctx.db.transaction(() => {
      this.ctx.db
        .prepare(
          `insert into recon_sessions (id, profile_id, name, source, source_filter, period_from, period_to, time_zone, settings, created_at, created_by, head_hash, event_count)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`
        )
        .run(
          id,
          input.profileId,
          input.name,
          input.source,
          JSON.stringify(filter),
          input.from,
          input.to,
          input.timeZone,
          JSON.stringify(settings),
          at,
          this.ctx.user(),
          GENESIS
        )
      for (const fileId of input.fileIds)
        this.ctx.db.prepare('insert into recon_session_files (session_id, file_id) values (?, ?)').run(id, fileId)
      this.ctx.record(id, {
        kind: 'session_created',
        payload: {
          name: input.name,
          source: input.source,
          filter,
          from: input.from,
          to: input.to,
          timeZone: input.timeZone,
          settings,
          fileIds: input.fileIds
        }
      })
    })()
    return this.get(id)
  }

  addFiles(sessionId: string, fileIds: string[]): SessionInfo {
    const session = this.open(sessionId)
    for (const fileId of fileIds) this.statements.ofProfile(fileId, session.profileId)
    for (const fileId of fileIds) this.periodHoldsLines(session.from, session.to, [fileId])
    this.ctx.db.transaction(() => {
      for (const fileId of fileIds)
        this.ctx.db.prepare('insert or ignore into recon_session_files (session_id, file_id) values (?, ?)').run(sessionId, fileId)
      this.ctx.record(sessionId, { kind: 'files_added', payload: { fileIds } })
    })()
    return this.get(sessionId)
  }

  updateSettings(sessionId: string, settings: Partial<ReconSettings>): SessionInfo {
    const session = this.open(sessionId)
    const next = checkedSettings({ ...session.settings, ...settings })
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare('update recon_sessions set settings = ? where id = ?').run(JSON.stringify(next), sessionId)
      this.ctx.record(sessionId, { kind: 'settings_changed', payload: { settings: next } })
    })()
    return this.get(sessionId)
  }

  /**
   * Refuses a period that holds none of the statements' dated lines: every line would be left
   * outside it, and a reconciliation of nothing says nothing. Names both date ranges.
   */
  private periodHoldsLines(from: string, to: string, fileIds: readonly string[]): void {
    const days = fileIds.map((id) => ({ id, days: this.statements.lineDays(id) })).filter((f) => f.days !== null)
    if (days.length === 0 || days.some((f) => f.days !== null && this.statements.linesBetween(f.id, from, to) > 0)) return
    const first = days.map((f) => f.days?.from as string).sort()[0] as string
    const last = days.map((f) => f.days?.to as string).sort()[days.length - 1] as string
    const names = fileIds.map((id) => this.statements.file(id).name)
    throw new AppError(
      'period_outside_statement',
      `The period ${from} to ${to} holds none of the lines of ${[...new Set(names)].join(', ')}: they are dated ${first} to ${last}. Choose a period that overlaps them.`
    )
  }

  get(id: string): SessionInfo {
    const row = this.ctx.db.prepare('select * from recon_sessions where id = ?').get(id) as SessionRow | undefined
    if (!row) throw new AppError('session_not_found', `No reconciliation session ${id}.`)
    const files = (
      this.ctx.db.prepare('select file_id from recon_session_files where session_id = ? order by file_id').all(id) as { file_id: string }[]
    ).map((f) => this.statements.file(f.file_id))
    const totals = row.last_run_at ? this.items.totals(id, row) : null
    const shared = this.ctx.db.prepare('select workspace, shared_id, replica_id from recon_shared_links where session_id = ?').get(id) as
      { workspace: string; shared_id: string; replica_id: string | null } | undefined
    return {
      id: row.id,
      profileId: row.profile_id,
      name: row.name,
      source: row.source,
      filter: JSON.parse(row.source_filter) as SourceFilter,
      from: row.period_from,
      to: row.period_to,
      timeZone: row.time_zone,
      settings: storedSettings(row.settings),
      files,
      createdAt: row.created_at,
      createdBy: row.created_by,
      lastRunAt: row.last_run_at,
      closedAt: row.closed_at,
      closedBy: row.closed_by,
      counts: totals?.counts ?? null,
      toReview: totals?.exceptions ?? null,
      team: shared
        ? { workspace: shared.workspace, sharedId: shared.shared_id, replay: shared.replica_id === null, copyId: shared.replica_id }
        : null
    }
  }

  list(profileId: string): SessionInfo[] {
    return (
      this.ctx.db.prepare('select id from recon_sessions where profile_id = ? order by created_at desc, id').all(profileId) as {
        id: string
      }[]
    ).map((r) => this.get(r.id))
  }

  /** The session, refused when it is closed: nothing in it changes until it is reopened. */
  open(sessionId: string): SessionInfo {
    const session = this.get(sessionId)
    if (session.closedAt)
      throw new AppError(
        'session_closed',
        `The session "${session.name}" was closed by ${session.closedBy} at ${session.closedAt}; reopen it (with a reason) to change it.`
      )
    return session
  }

  events(sessionId: string): AuditEvent[] {
    this.get(sessionId)
    return sessionEvents(this.ctx.db, sessionId)
  }

  /** What the reports of a session are written from: its stored items (read as they are written), decisions and events. */
  reportInput(sessionId: string, profile: { name: string; mode: string }): ReportInput {
    const events = this.events(sessionId)
    return {
      session: this.get(sessionId),
      profile,
      items: () => this.items.all(sessionId),
      folded: foldEvents(events),
      events,
      facts: this.items.storedSummary(sessionId)?.totals.facts ?? null
    }
  }

  /** What a close will record (its time, who, its event number), checked before its evidence is made. */
  closing(sessionId: string): { at: string; user: string; seq: number } {
    const session = this.open(sessionId)
    if (!session.lastRunAt) throw new AppError('not_run', 'Run the session before closing it.')
    const count = this.ctx.db.prepare('select event_count from recon_sessions where id = ?').pluck().get(sessionId) as number
    return { at: this.ctx.now().toISOString(), user: this.ctx.user(), seq: count + 1 }
  }

  /**
   * Closes the session at the moment `closing` gave, recording the evidence made for that moment;
   * refused when anything happened to the session meanwhile (the evidence would describe another one).
   */
  close(sessionId: string, closing: { at: string; user: string; seq: number }, evidence: ClosedEvidence): SessionInfo {
    this.open(sessionId)
    this.ctx.db.transaction(() => {
      const count = this.ctx.db.prepare('select event_count from recon_sessions where id = ?').pluck().get(sessionId) as number
      if (count + 1 !== closing.seq)
        throw new AppError('session_changed', 'The session changed while it was being closed (a decision came in): close it again.')
      this.ctx.db.prepare('update recon_sessions set closed_at = ?, closed_by = ? where id = ?').run(closing.at, closing.user, sessionId)
      this.ctx.record(sessionId, { kind: 'close', payload: { counts: this.items.totals(sessionId).counts, evidence } }, closing.at)
    })()
    return this.get(sessionId)
  }

  reopen(sessionId: string, reason: string): SessionInfo {
    const session = this.get(sessionId)
    if (!session.closedAt) throw new AppError('session_open', `The session "${session.name}" is open already.`)
    if (reason.trim() === '') throw new AppError('reason_required', 'Reopening a closed session needs a reason.')
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare('update recon_sessions set closed_at = null, closed_by = null where id = ?').run(sessionId)
      this.ctx.record(sessionId, {
        kind: 'reopen',
        payload: { reason: reason.trim(), closedAt: session.closedAt, closedBy: session.closedBy }
      })
    })()
    return this.get(sessionId)
  }
}
