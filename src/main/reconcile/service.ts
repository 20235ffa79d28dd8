// Reconciliation over the cache, one object for its callers (the host's handlers, the CLI): statements, sessions, runs, decisions and the stored items, each in its own part.
import type Database from 'better-sqlite3'
import type { StatementRows } from './import/statement-rows'
import type {
  Decision,
  ImportedFileInfo,
  ItemFilter,
  ReconItem,
  ReconSettings,
  SessionInfo,
  StatementMapping
} from '../../shared/reconcile'
import type { AuditEvent } from './audit'
import type { AuditEventBody } from '../../shared/reconcile-events'
import { transactionAcrossAwaits } from '../cache/transaction'
import { AppError } from '../errors'
import { ReconContext } from './context'
import { sessionProviderSide, type ProviderSide } from './provider-side'
import { evidenceOnClose, writeEvidencePack, type PackProgress } from './evidence'
import { Decisions } from './decisions'
import { foldSession, type FoldedDecisions } from './fold'
import { SessionItems } from './items'
import type { ReportInput, SummaryTotals } from './totals'
import type { Learned } from './learning/evidence'
import { Runs, type RunOptions, type RunOutcome } from './runs'
import { Sessions, type NewSession } from './sessions'
import { Statements, type ImportOutcome, type ImportRequest } from './statement-store'

export type { ImportOutcome, ImportRequest } from './statement-store'
export { StatementReads, storedFileIds } from './statement-store'
export type { NewSession } from './sessions'
export type { RunOutcome } from './runs'

/** The parts, each over the same database, clock and user. */
interface Parts {
  statements: Statements
  items: SessionItems
  sessions: Sessions
  runs: Runs
  decisions: Decisions
}

export class ReconService {
  private readonly ctx: ReconContext
  private readonly parts: Parts

  constructor(db: Database.Database, options: { now?: () => Date; user?: string } = {}) {
    this.ctx = new ReconContext(db, options)
    const statements = new Statements(this.ctx)
    const items = new SessionItems(this.ctx)
    const sessions = new Sessions(this.ctx, statements, items)
    const runs = new Runs(this.ctx, sessions, items)
    this.parts = { statements, items, sessions, runs, decisions: new Decisions(this.ctx, sessions, items, runs) }
  }

  // ---- statements
  importStatement(request: ImportRequest): Promise<ImportOutcome> {
    return this.parts.statements.importStatement(request)
  }
  sameRows(profileId: string, statements: readonly StatementRows[]): number {
    return this.parts.statements.sameRows(profileId, statements)
  }
  file(id: string): ImportedFileInfo {
    return this.parts.statements.file(id)
  }
  files(profileId: string): ImportedFileInfo[] {
    return this.parts.statements.files(profileId)
  }
  fileDays(profileId: string, fileId: string): { from: string; to: string } | null {
    return this.parts.statements.fileDays(profileId, fileId)
  }
  /** The first and last day of a statement's lines, read or not read (as far as their day was read). */
  lineDays(fileId: string): { from: string; to: string } | null {
    return this.parts.statements.lineDays(fileId)
  }
  savePreset(sourceName: string, headerSignature: string, mapping: StatementMapping): void {
    this.parts.statements.savePreset(sourceName, headerSignature, mapping)
  }
  presetFor(headerSignature: string): { sourceName: string; mapping: StatementMapping } | null {
    return this.parts.statements.presetFor(headerSignature)
  }

  // ---- sessions
  createSession(input: NewSession): SessionInfo {
    return this.parts.sessions.create(input)
  }
  addFiles(sessionId: string, fileIds: string[]): SessionInfo {
    this.notReplayed(sessionId)
    return this.parts.sessions.addFiles(sessionId, fileIds)
  }
  updateSettings(sessionId: string, settings: Partial<ReconSettings>): SessionInfo {
    this.notReplayed(sessionId)
    return this.parts.sessions.updateSettings(sessionId, settings)
  }
  session(id: string): SessionInfo {
    return this.parts.sessions.get(id)
  }
  /** A session of this profile; another profile's is refused (test and live never mix). */
  sessionOfProfile(id: string, profileId: string): SessionInfo {
    const session = this.parts.sessions.get(id)
    if (session.profileId !== profileId)
      throw new AppError('profile_mismatch', 'That session belongs to another profile; switch to it first (test and live never mix).')
    return session
  }
  sessions(profileId: string): SessionInfo[] {
    return this.parts.sessions.list(profileId)
  }
  events(sessionId: string): AuditEvent[] {
    return this.parts.sessions.events(sessionId)
  }
  reportInput(sessionId: string, profile: { name: string; mode: string }): ReportInput {
    return this.parts.sessions.reportInput(sessionId, profile)
  }
  /**
   * Closes a session, binding its evidence: every file of its pack (reports as of this moment,
   * settings, statements), by SHA-256, goes into the close event, so the chain head kept with the
   * sign-off covers them. `profile`: the profile the reports name; `locale`: how its reports for people
   * write days and times; `signal`: a cancel (the CLI's, see evidenceOnClose), which leaves it open.
   */
  async close(
    sessionId: string,
    profile: { name: string; mode: string },
    options: { progress?: PackProgress; locale?: string; signal?: AbortSignal } = {}
  ): Promise<SessionInfo> {
    this.notReplayed(sessionId)
    const closing = this.parts.sessions.closing(sessionId)
    const evidence = await evidenceOnClose(
      { ...this.reportInput(sessionId, profile), locale: options.locale },
      closing,
      options.progress,
      options.signal
    )
    return this.parts.sessions.close(sessionId, closing, evidence)
  }
  /** A team workspace's approval of the shared session this one replays, or its end (null): the approval locks the period. */
  setApproved(sessionId: string, at: string | null): void {
    this.parts.sessions.setApproved(sessionId, at)
  }

  reopen(sessionId: string, reason: string): SessionInfo {
    this.notReplayed(sessionId)
    return this.parts.sessions.reopen(sessionId, reason)
  }
  /** Writes the session's evidence pack (reports, statements as imported, audit trail, settings) to `file`; only for a closed session. */
  evidencePack(
    sessionId: string,
    file: string,
    profile: { name: string; mode: string },
    progress?: PackProgress,
    signal?: AbortSignal
  ): ReturnType<typeof writeEvidencePack> {
    const session = this.parts.sessions.get(sessionId)
    if (!session.closedAt)
      throw new AppError('session_open', `Close the session "${session.name}" first: an evidence pack is what was signed off.`)
    return writeEvidencePack(
      file,
      this.reportInput(sessionId, profile),
      (id) => this.parts.statements.content(id),
      this.ctx.now(),
      progress,
      signal
    )
  }

  /**
   * What a session was reconciled from, for sharing it with a team: its statement files exactly as
   * imported, and the provider records a run reads for it (the period and the window's reach past it),
   * as JSON: a member replays from these and needs no API key.
   */
  inputs(sessionId: string): {
    session: SessionInfo
    statements: { name: string; sha256: string; bytes: Buffer }[]
    providerRecords: Buffer
  } {
    const session = this.parts.sessions.get(sessionId)
    const statements = session.files.map((f) => {
      const bytes = this.parts.statements.content(f.id)
      if (bytes === null)
        throw new AppError(
          'statement_not_kept',
          `${f.name} was imported before Ledgerline kept statement files: import it again into this session before sharing it.`
        )
      return { name: f.name, sha256: f.sha256, bytes }
    })
    return { session, statements, providerRecords: Buffer.from(JSON.stringify(sessionProviderSide(this.ctx.db, session))) }
  }

  // ---- runs
  run(sessionId: string, options: RunOptions = {}): Promise<RunOutcome> {
    return this.parts.runs.run(sessionId, options)
  }
  /**
   * Creates a session and runs it as one transaction (the CLI's reconcile): cancelled (the signal, at
   * the next step) or killed at any point, the cache holds the session run, or no session at all, never
   * one half-made. Only for a process with the connection to itself (see transactionAcrossAwaits).
   */
  createAndRun(input: NewSession, options: { signal: AbortSignal; onProgress?: RunOptions['onProgress'] }): Promise<RunOutcome> {
    return transactionAcrossAwaits(this.ctx.db, () => this.parts.runs.runWithin(this.parts.sessions.create(input).id, options))
  }
  compute(session: SessionInfo, options: RunOptions = {}): ReturnType<Runs['compute']> {
    return this.parts.runs.compute(session, options)
  }
  /** What the session's audit events decide (see fold.ts). */
  /** The session matched again before any decision of its own, with only what `learned` says (nothing stored). */
  replay(session: SessionInfo, learned: Learned): ReconItem[] {
    return this.parts.runs.replay(session, learned)
  }
  fold(sessionId: string): FoldedDecisions {
    return foldSession(this.ctx.db, sessionId)
  }

  // ---- decisions
  decide(sessionId: string, decision: Decision): Promise<{ session: SessionInfo; inPlace: boolean; item: ReconItem | null }> {
    this.notReplayed(sessionId)
    return this.parts.decisions.decide(sessionId, decision)
  }
  /** The audit event a decision is kept as, read against the session's last run, without keeping it (a team member sends it to the workspace). */
  decisionBody(sessionId: string, decision: Decision): AuditEventBody {
    return this.parts.decisions.body(sessionId, decision)
  }
  /** Name, profile and last run of each session named, without its files or totals (a list of many reads only these). */
  sessionFacts(ids: readonly string[]): Map<string, { name: string; profileId: string; lastRunAt: string | null }> {
    const read = this.ctx.db.prepare('select name, profile_id, last_run_at from recon_sessions where id = ?')
    const facts = new Map<string, { name: string; profileId: string; lastRunAt: string | null }>()
    for (const id of new Set(ids)) {
      const row = read.get(id) as { name: string; profile_id: string; last_run_at: string | null } | undefined
      if (row) facts.set(id, { name: row.name, profileId: row.profile_id, lastRunAt: row.last_run_at })
    }
    return facts
  }
  /** Which of these statement ids are stored here. */
  storedStatements(ids: readonly string[]): string[] {
    const read = this.ctx.db.prepare('select id from recon_files where id = ?').pluck()
    return ids.filter((id) => read.get(id) !== undefined)
  }
  /** Keeps the provider records a replayed session is run against (as shared), instead of the profile's cached records. */
  keepProviderSnapshot(sessionId: string, side: ProviderSide): void {
    this.ctx.db.prepare('insert into recon_provider_snapshots (session_id, side) values (?, ?)').run(sessionId, JSON.stringify(side))
  }
  /** Decisions kept as events elsewhere (pulled from a team workspace) applied in place; false: run the session again. */
  applyKept(sessionId: string, kept: readonly { body: AuditEventBody; event: AuditEvent }[]): boolean {
    return this.parts.decisions.applyKept(sessionId, kept)
  }
  /** Whether the session replays one shared in a team workspace. */
  replayed(sessionId: string): boolean {
    return this.ctx.db.prepare('select 1 from recon_shared_links where session_id = ? and replica_id is null').get(sessionId) !== undefined
  }
  /**
   * Links a replica to the session it replays in a workspace (team calls it as it creates the replica, in the same transaction),
   * and the session that was shared, when it is on this computer, to its replica.
   */
  linkShared(replicaId: string, workspace: string, sharedId: string): void {
    const link = this.ctx.db.prepare(
      'insert or ignore into recon_shared_links (session_id, workspace, shared_id, replica_id) select id, ?, ?, ? from recon_sessions where id = ?'
    )
    link.run(workspace, sharedId, null, replicaId)
    if (sharedId !== replicaId) link.run(workspace, sharedId, replicaId, sharedId)
  }
  /** A session replayed from a team workspace is decided there (its events come back from the server), never here alone. */
  /** Refuses a change to a session replayed from a team workspace: it changes only through the workspace. */
  notReplayed(sessionId: string): void {
    if (this.replayed(sessionId))
      throw new AppError(
        'team_session',
        'This session is shared in a team workspace: it changes only through the workspace (decisions and comments; submit, approve, return and reopen for its sign-off), in the app or with --server in the CLI, so every member sees the same.'
      )
  }
  previewAcceptAll(sessionId: string, filter: ItemFilter, minScore: number, groups = false): ReturnType<Decisions['previewAcceptAll']> {
    return this.parts.decisions.previewAcceptAll(sessionId, filter, minScore, groups)
  }
  /** The keys of the undecided suggestions the filter shows scoring at least minScore (what acceptAll would accept). */
  suggestionKeys(sessionId: string, filter: ItemFilter, minScore: number): string[] {
    return this.parts.items.suggestionsAbove(sessionId, filter, minScore).map((item) => item.key)
  }
  acceptAll(sessionId: string, filter: ItemFilter, minScore: number, groups = false): Promise<{ accepted: number; session: SessionInfo }> {
    this.notReplayed(sessionId)
    return this.parts.decisions.acceptAll(sessionId, filter, minScore, groups)
  }
  /** The items that hold any of these records or lines now (after a decision ran the session again). */
  itemsHolding(sessionId: string, providerIds: string[], fileIds: string[]): ReconItem[] {
    return this.parts.items.containing(sessionId, providerIds, fileIds)
  }

  // ---- the stored result
  items(sessionId: string, options: ItemFilter & { offset?: number; limit?: number } = {}): { total: number; items: ReconItem[] } {
    return this.parts.items.page(sessionId, options)
  }
  item(sessionId: string, key: string): ReconItem | null {
    return this.parts.items.get(sessionId, key)
  }
  allItems(sessionId: string): Generator<ReconItem> {
    return this.parts.items.all(sessionId)
  }
  totals(sessionId: string): SummaryTotals {
    return this.parts.items.totals(sessionId)
  }
}
