// Reconciliation sessions: created over a profile's records, a period and statements (of an account, their periods chained), their settings, reading them back, closing and reopening.
import type Database from 'better-sqlite3'
import { randomUUID } from 'node:crypto'
import {
  checkReconSettings,
  DEFAULT_SETTINGS,
  RECON_SOURCES,
  storedSettings,
  type ImportedFileInfo,
  type PeriodChain,
  type ReconSettings,
  type ReconSource,
  type SessionAccount,
  type SessionInfo
} from '../../shared/reconcile'
import { isTimeZone } from '../../shared/time'
import { AppError } from '../errors'
import { GENESIS, sessionEvents, type AuditEvent } from './audit'
import type { ReconContext } from './context'
import { foldEvents } from './fold'
import { accountKey } from '../../shared/periods'
import { accountOf, lockedDays, periodChains, periodFileOf, statedAccount, type PeriodFile, type PeriodSession } from './periods'
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
  /** The account the session is of, for statements that state none (when they state one, it must be that one). */
  account?: string | undefined
  /** A team workspace's session replayed here: its period is the workspace's to lock, so no period closed on this computer refuses it. */
  replay?: boolean | undefined
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
  account_named: string | null
  summary: string | null
}

/** A session's account and its place among the account's periods, with the statements they were read from. */
interface Place {
  files: ImportedFileInfo[]
  account: SessionAccount
  chain: PeriodChain | null
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
    const named = this.namedAccount(input.account, input.fileIds)
    const id = randomUUID()
    const at = this.ctx.now().toISOString()
    this.ctx.db.transaction(() => {
      this.ctx.db
        .prepare(
          `insert into recon_sessions (id, profile_id, name, source, source_filter, period_from, period_to, time_zone, settings, created_at, created_by, head_hash, event_count, account_named)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`
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
          GENESIS,
          named
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
      // Lock dates: a period sharing days with a closed one of its account is refused, and nothing of it is kept.
      const made = this.get(id)
      if (input.replay !== true) this.refuseLocked(made, `"${made.name}" cannot be made`)
    })()
    return this.get(id)
  }

  /** Refuses a session whose period shares days with a closed period of its account (lock dates). */
  private refuseLocked(session: SessionInfo, refused: string): void {
    const locked = lockedDays(session)
    if (locked !== null) throw new AppError('period_locked', `${refused}: ${locked}`)
  }

  addFiles(sessionId: string, fileIds: string[]): SessionInfo {
    const session = this.open(sessionId)
    for (const fileId of fileIds) this.statements.ofProfile(fileId, session.profileId)
    // A statement of another account than the session's is not its statement.
    const stated = statedAccount(fileIds.map((id) => periodFileOf(this.statements.file(id))))
    if (session.account.name !== null && stated !== null && accountKey(stated) !== accountKey(session.account.name))
      throw new AppError(
        'account_conflict',
        `The statement is of account ${stated}; the session "${session.name}" is of account ${session.account.name}. Add it to a session of its own account.`
      )
    for (const fileId of fileIds) this.periodHoldsLines(session.from, session.to, [fileId])
    this.ctx.db.transaction(() => {
      for (const fileId of fileIds)
        this.ctx.db.prepare('insert or ignore into recon_session_files (session_id, file_id) values (?, ?)').run(sessionId, fileId)
      this.ctx.record(sessionId, { kind: 'files_added', payload: { fileIds } })
      // A statement can give the session its account, and with it a closed period it shares days with.
      this.refuseLocked(this.get(sessionId), `The statement cannot be added to "${session.name}"`)
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

  /**
   * The account a session is named for: only for statements that state none (or none yet); when they state one, a name
   * given must be that one (and is not kept: the statements say it). Null when none is named.
   */
  private namedAccount(given: string | undefined, fileIds: readonly string[]): string | null {
    const named = given?.trim() || null
    if (named === null) return null
    const stated = statedAccount(fileIds.map((id) => periodFileOf(this.statements.file(id))))
    if (stated === null) return named
    if (accountKey(stated) !== accountKey(named))
      throw new AppError(
        'account_conflict',
        `The statements are of account ${stated}, not ${named}: the account a statement states is never overridden.`
      )
    return null
  }

  /**
   * Sessions of a profile in their place: each one's account and how its period chains to the account's others, read from
   * each statement's stored account, currency and balances (never its problems or rows). All of them, or only `only`.
   */
  private places(profileId: string, only?: string): Map<string, Pick<Place, 'account' | 'chain'>> {
    const rows = this.ctx.db
      // A period is closed when its session is, or, shared in a team workspace, when the workspace approved it: the approval is the lock.
      .prepare(
        `select id, name, period_from, period_to, account_named, (closed_at is not null or approved_at is not null) as closed
           from recon_sessions where profile_id = ?`
      )
      .all(profileId) as (Pick<SessionRow, 'id' | 'name' | 'period_from' | 'period_to' | 'account_named'> & { closed: 0 | 1 })[]
    const files = new Map<string, PeriodFile[]>()
    for (const f of this.ctx.db
      .prepare(
        `select sf.session_id, f.id, f.name, coalesce(json_extract(f.proof, '$.account'), f.account) as account,
                json_extract(f.proof, '$.currency') as currency, json_extract(f.proof, '$.openingMinor') as opening,
                json_extract(f.proof, '$.closingMinor') as closing
           from recon_session_files sf join recon_sessions s on s.id = sf.session_id join recon_files f on f.id = sf.file_id
          where s.profile_id = ? order by sf.file_id`
      )
      .all(profileId) as {
      session_id: string
      id: string
      name: string
      account: string | null
      currency: string | null
      opening: number | null
      closing: number | null
    }[])
      files.set(f.session_id, [
        ...(files.get(f.session_id) ?? []),
        { id: f.id, name: f.name, account: f.account, currency: f.currency, openingMinor: f.opening, closingMinor: f.closing }
      ])
    const sessions: PeriodSession[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      from: r.period_from,
      to: r.period_to,
      closed: r.closed === 1,
      named: r.account_named,
      files: files.get(r.id) ?? []
    }))
    const chains = periodChains(sessions, (list) => this.firstAndLast(list), only)
    return new Map(
      sessions
        .filter((s) => only === undefined || s.id === only)
        .map((s) => [s.id, { account: accountOf(s), chain: chains.get(s.id) ?? null }])
    )
  }

  /** A session's statements in date order, its first and its last (one statement is both); null for none. */
  private firstAndLast(files: readonly PeriodFile[]): { first: PeriodFile; last: PeriodFile } | null {
    if (files.length <= 1) return files[0] ? { first: files[0], last: files[0] } : null
    const dated = files.map((f) => ({ f, days: this.statements.lineDays(f.id) }))
    const first = [...dated].sort((a, b) => ((a.days?.from ?? '9') < (b.days?.from ?? '9') ? -1 : 1))[0]?.f as PeriodFile
    const last = [...dated].sort((a, b) => ((a.days?.to ?? '') > (b.days?.to ?? '') ? -1 : 1))[0]?.f as PeriodFile
    return { first, last }
  }

  /** A session's statements, as stored. */
  private filesOf(id: string): ImportedFileInfo[] {
    return (
      this.ctx.db.prepare('select file_id from recon_session_files where session_id = ? order by file_id').all(id) as { file_id: string }[]
    ).map((f) => this.statements.file(f.file_id))
  }

  get(id: string): SessionInfo {
    const row = this.ctx.db.prepare('select * from recon_sessions where id = ?').get(id) as SessionRow | undefined
    if (!row) throw new AppError('session_not_found', `No reconciliation session ${id}.`)
    return this.infoOf(row, { files: this.filesOf(id), ...(this.places(row.profile_id, id).get(id) as Pick<Place, 'account' | 'chain'>) })
  }

  private infoOf(row: SessionRow, place: Place): SessionInfo {
    const id = row.id
    const files = place.files
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
        : null,
      account: place.account,
      chain: place.chain
    }
  }

  list(profileId: string): SessionInfo[] {
    const places = this.places(profileId)
    return (
      this.ctx.db.prepare('select * from recon_sessions where profile_id = ? order by created_at desc, id').all(profileId) as SessionRow[]
    ).map((row) => this.infoOf(row, { files: this.filesOf(row.id), ...(places.get(row.id) as Pick<Place, 'account' | 'chain'>) }))
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

  /** Keeps when a team workspace approved the shared session this one replays (null: not approved, or reopened since): the approval locks the period as a close does. */
  setApproved(sessionId: string, at: string | null): void {
    this.ctx.db.prepare('update recon_sessions set approved_at = ? where id = ?').run(at, sessionId)
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

/** How many reconciliation sessions a cache (or a backup of one) holds: what a backup is said to hold beside its profiles and records. */
export function countSessions(db: Database.Database): number {
  return db.prepare('select count(*) from recon_sessions').pluck().get() as number
}
