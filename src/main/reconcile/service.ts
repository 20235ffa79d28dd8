// Reconciliation over the cache: imported statements, sessions, runs of the engine stored as the session's result, decisions as audit events, close and reopen.
import type Database from 'better-sqlite3'
import { randomUUID } from 'node:crypto'
import { parseMajor } from '../../shared/money'
import {
  DEFAULT_SETTINGS,
  RECON_SOURCES,
  RULE_VERSION,
  type AdjustmentInfo,
  type Decision,
  type FileSide,
  type ImportedFileInfo,
  type ItemFilter,
  type Outcome,
  type ProviderSide,
  type ReconItem,
  type ReconSettings,
  type ReconSource,
  type SessionInfo,
  type StatementMapping
} from '../../shared/reconcile'
import { isTimeZone } from '../../shared/time'
import { AppError } from '../errors'
import { appendEvent, osUserName, sessionEvents, type AuditEvent } from './audit'
import {
  expectedAmount,
  NO_DECISIONS,
  pairKey,
  runMatch,
  runMatchAsync,
  type EngineDecisions,
  type EngineProvider,
  type EngineFileRow,
  type MatchResult,
  type PinnedMatch
} from './engine'
import { parseStatement, type ParsedStatement, type StatementRow } from './import/statement'
import { filterClause, itemColumns } from './item-filters'
import { loadProviderSide, outsideThePeriod, type SourceFilter } from './provider-side'
import { summarise, Totals, type ReportInput, type SummaryTotals } from './report'
import { keysNamedBy, normaliseReference } from './references'

export interface ImportRequest {
  profileId: string
  name: string
  bytes: Uint8Array
  mapping?: Partial<StatementMapping> | undefined
  /** When the same file (by SHA-256) was imported before: use that one, or import it again. */
  ifSameFile?: 'use-existing' | 'import-again' | undefined
  /** When some rows were imported before in another file: keep them all, or leave those rows out. */
  ifSameRows?: 'keep' | 'skip' | undefined
  /** Only read and report; store nothing. */
  previewOnly?: boolean | undefined
}

export type ImportOutcome =
  | { status: 'imported'; file: ImportedFileInfo; parsed: ParsedStatement; presetApplied: string | null; skippedSameRows: number }
  | { status: 'preview' | 'questions'; parsed: ParsedStatement; presetApplied: string | null }
  | { status: 'same-file'; parsed: ParsedStatement; existing: ImportedFileInfo; presetApplied: string | null }
  | { status: 'same-rows'; parsed: ParsedStatement; sameRows: number; presetApplied: string | null }

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

export interface RunOutcome {
  session: SessionInfo
  counts: Record<Outcome, number>
  items: number
  leftOutFailed: number
  /** Records from just outside the period that no line claims (read because the window reaches past the period). */
  leftOutOutsidePeriod: number
  unreadable: number
  notes: string[]
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

interface FileRow {
  id: string
  name: string
  sha256: string
  row_count: number
  problems: string
  imported_at: string
  imported_by: string
  number_form: string | null
  date_form: string | null
  encoding: string | null
  separator: string | null
  mapping: string
}

/** What the events of a session say: decisions for the engine, notes and reasons per item, adjustments. */
export interface FoldedDecisions {
  engine: EngineDecisions
  notes: Map<string, { note: string | null; reasonCode: string | null; resolved: boolean; by: string; at: string }>
  adjustments: AdjustmentInfo[]
  reopenedAt: string | null
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
/** Statement rows per insert statement (10 values each: 5,000, well under SQLite's limit of 32,766). */
const ROW_BATCH = 500

export class ReconService {
  constructor(
    private readonly db: Database.Database,
    private readonly options: { now?: () => Date; user?: string } = {}
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date()
  }

  private user(): string {
    return this.options.user ?? osUserName()
  }

  // ---- statements -------------------------------------------------------------------------

  /** Reads a statement, applies a saved preset when its headers match, and stores it unless asked only to preview or something needs the user. */
  async importStatement(request: ImportRequest): Promise<ImportOutcome> {
    let parsed = await parseStatement(request.bytes, request.name, request.mapping ?? {})
    let presetApplied: string | null = null
    if (!request.mapping?.columns || Object.keys(request.mapping.columns).length === 0) {
      const preset = [parsed.headerSignature, ...parsed.rowSignatures].map((s) => this.presetFor(s)).find((p) => p !== null) ?? null
      if (preset) {
        parsed = await parseStatement(request.bytes, request.name, {
          ...preset.mapping,
          ...stripEmpty(request.mapping ?? {}),
          columns: preset.mapping.columns
        })
        presetApplied = preset.sourceName
      }
    }
    const existing = this.db
      .prepare('select id from recon_files where profile_id = ? and sha256 = ? order by imported_at limit 1')
      .get(request.profileId, parsed.sha256) as { id: string } | undefined
    if (existing && request.ifSameFile !== 'import-again' && !request.previewOnly) {
      return { status: 'same-file', parsed, existing: this.file(existing.id), presetApplied }
    }
    if (parsed.questions.length > 0) return { status: 'questions', parsed, presetApplied }
    if (request.previewOnly) return { status: 'preview', parsed, presetApplied }
    const known = this.knownRowIds(request.profileId, parsed.rows)
    if (known.size > 0 && !existing && request.ifSameRows === undefined)
      return { status: 'same-rows', parsed, sameRows: known.size, presetApplied }
    const rows = request.ifSameRows === 'skip' ? parsed.rows.filter((r) => !known.has(r.id)) : parsed.rows
    const id = randomUUID()
    this.db.transaction(() => {
      const num = this.db.prepare('select coalesce(max(num), 0) + 1 from recon_files').pluck().get() as number
      this.db
        .prepare(
          `insert into recon_files (id, num, profile_id, name, sha256, size, encoding, separator, sheet, header, header_line, mapping, number_form, date_form, row_count, problems, skipped, imported_at, imported_by)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
        )
        .run(
          id,
          num,
          request.profileId,
          request.name,
          parsed.sha256,
          parsed.size,
          parsed.encoding,
          parsed.separator,
          parsed.sheet,
          JSON.stringify(parsed.header),
          parsed.headerLine,
          JSON.stringify(parsed.mapping),
          parsed.numberForm,
          parsed.dateForm,
          rows.length,
          JSON.stringify(parsed.problems),
          JSON.stringify(parsed.skipped),
          this.now().toISOString(),
          this.user()
        )
      // Rows go in BATCH at a time: one statement call per batch, not per row (a million rows in seconds).
      const columns = '(file_num, line, row_id, date, time, amount_minor, currency, reference, description, counterparty)'
      const statement = (n: number): Database.Statement =>
        this.db.prepare(`insert into recon_file_rows ${columns} values ${Array(n).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`)
      const full = statement(ROW_BATCH)
      const values: unknown[] = new Array(ROW_BATCH * 10)
      for (let start = 0; start < rows.length; start += ROW_BATCH) {
        const end = Math.min(rows.length, start + ROW_BATCH)
        if (end - start < ROW_BATCH) values.length = (end - start) * 10
        for (let k = start, v = 0; k < end; k++) {
          const r = rows[k] as StatementRow
          values[v++] = num
          values[v++] = r.line
          values[v++] = r.id
          values[v++] = r.date
          values[v++] = r.time
          values[v++] = r.amountMinor
          values[v++] = r.currency
          values[v++] = r.reference
          values[v++] = r.description
          values[v++] = r.counterparty
        }
        ;(end - start === ROW_BATCH ? full : statement(end - start)).run(values)
      }
    })()
    return { status: 'imported', file: this.file(id), parsed, presetApplied, skippedSameRows: parsed.rows.length - rows.length }
  }

  /**
   * The currency a statement without one is in: the provider's only currency for this source, or
   * the one whose references the statement names most often. Null when that does not settle it.
   */
  async statementCurrency(
    profileId: string,
    source: ReconSource,
    bytes: Uint8Array,
    name: string,
    mapping: Partial<StatementMapping>
  ): Promise<string | null> {
    const table =
      source === 'payouts'
        ? 'transfers'
        : source === 'subscriptions'
          ? 'subscriptions'
          : source === 'virtual-accounts'
            ? 'virtual_accounts'
            : 'payments'
    const currencies = (
      this.db.prepare(`select distinct currency from ${table} where profile_id = ? and currency is not null`).all(profileId) as {
        currency: string
      }[]
    ).map((r) => r.currency)
    if (currencies.length <= 1) return currencies[0] ?? null
    if (table !== 'payments' && table !== 'transfers') return null
    // Read with a placeholder currency: only the references and descriptions are looked at.
    const keys = keysNamedBy((await parseStatement(bytes, name, { ...mapping, defaultCurrency: 'USD' })).rows)
    const hits = new Map<string, number>()
    const rows = this.db
      .prepare(`select reference, service_reference, currency from ${table} where profile_id = ?`)
      .raw(true)
      .iterate(profileId) as Iterable<[string | null, string | null, string]>
    for (const [reference, serviceReference, currency] of rows) {
      if ((reference && keys.has(normaliseReference(reference))) || (serviceReference && keys.has(normaliseReference(serviceReference))))
        hits.set(currency, (hits.get(currency) ?? 0) + 1)
    }
    const ranked = [...hits].sort((a, b) => b[1] - a[1])
    if (ranked.length === 0 || (ranked.length > 1 && ranked[0]?.[1] === ranked[1]?.[1])) return null
    return (ranked[0] as [string, number])[0]
  }

  /** How many of these rows were imported before in another file of the profile. */
  sameRows(profileId: string, rows: readonly StatementRow[]): number {
    return this.knownRowIds(profileId, rows).size
  }

  /** The rows of this file that the profile's other files hold already (one pass over their ids). */
  private knownRowIds(profileId: string, rows: readonly StatementRow[]): Set<string> {
    const known = new Set<string>()
    if (rows.length === 0) return known
    const stored = this.db
      .prepare('select r.row_id from recon_file_rows r join recon_files f on f.num = r.file_num where f.profile_id = ?')
      .pluck()
      .iterate(profileId) as Iterable<string>
    const before = new Set<string>()
    for (const id of stored) before.add(id)
    if (before.size === 0) return known
    for (const r of rows) if (before.has(r.id)) known.add(r.id)
    return known
  }

  file(id: string): ImportedFileInfo {
    const row = this.db.prepare('select * from recon_files where id = ?').get(id) as FileRow | undefined
    if (!row) throw new AppError('file_not_found', `No imported statement ${id}.`)
    return {
      id: row.id,
      name: row.name,
      sha256: row.sha256,
      rows: row.row_count,
      problems: (JSON.parse(row.problems) as unknown[]).length,
      importedAt: row.imported_at,
      importedBy: row.imported_by,
      numberForm: row.number_form,
      dateForm: row.date_form,
      encoding: row.encoding,
      separator: row.separator,
      mapping: JSON.parse(row.mapping) as StatementMapping
    }
  }

  files(profileId: string): ImportedFileInfo[] {
    return (
      this.db.prepare('select id from recon_files where profile_id = ? order by imported_at, id').all(profileId) as { id: string }[]
    ).map((r) => this.file(r.id))
  }

  /** The first and last day a file's rows are dated (a new session's period by default); null for a file without rows. */
  fileDays(profileId: string, fileId: string): { from: string; to: string } | null {
    const row = this.db
      .prepare(
        'select min(r.date) as "from", max(r.date) as "to" from recon_files f join recon_file_rows r on r.file_num = f.num where f.id = ? and f.profile_id = ?'
      )
      .get(fileId, profileId) as { from: string | null; to: string | null }
    return row.from && row.to ? { from: row.from, to: row.to } : null
  }

  /** Saves a file's mapping for a source: later files with the same headers are read the same way. */
  savePreset(sourceName: string, headerSignature: string, mapping: StatementMapping): void {
    const { encoding: _encoding, ...kept } = mapping
    this.db
      .prepare(
        'insert into recon_presets (header_signature, source_name, mapping, saved_at) values (?, ?, ?, ?) on conflict (header_signature) do update set source_name = excluded.source_name, mapping = excluded.mapping, saved_at = excluded.saved_at'
      )
      .run(headerSignature, sourceName, JSON.stringify({ ...kept, encoding: null }), this.now().toISOString())
  }

  presetFor(headerSignature: string): { sourceName: string; mapping: StatementMapping } | null {
    const row = this.db.prepare('select source_name, mapping from recon_presets where header_signature = ?').get(headerSignature) as
      { source_name: string; mapping: string } | undefined
    return row ? { sourceName: row.source_name, mapping: JSON.parse(row.mapping) as StatementMapping } : null
  }

  // ---- sessions ---------------------------------------------------------------------------

  createSession(input: NewSession): SessionInfo {
    if (!RECON_SOURCES.includes(input.source))
      throw new AppError('invalid_source', `The provider side must be one of ${RECON_SOURCES.join(', ')}.`)
    if (!DAY.test(input.from) || !DAY.test(input.to) || input.from > input.to)
      throw new AppError(
        'invalid_period',
        `The period must be two days YYYY-MM-DD, the first not after the second (got ${input.from} to ${input.to}).`
      )
    if (!isTimeZone(input.timeZone)) throw new AppError('invalid_time_zone', `"${input.timeZone}" is not a time zone.`)
    const settings = checkSettings({ ...DEFAULT_SETTINGS, ...(input.settings ?? {}) })
    const filter = input.filter ?? {}
    if (input.source === 'payouts' && (filter.bulkFileIds ?? []).length === 0 && (filter.references ?? []).length === 0) {
      throw new AppError('invalid_source', 'A payouts session needs the bulk files or transfer references it reconciles.')
    }
    for (const fileId of input.fileIds) this.fileOfProfile(fileId, input.profileId)
    const id = randomUUID()
    const at = this.now().toISOString()
    this.db.transaction(() => {
      this.db
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
          this.user(),
          '0'.repeat(64)
        )
      for (const fileId of input.fileIds)
        this.db.prepare('insert into recon_session_files (session_id, file_id) values (?, ?)').run(id, fileId)
      this.event(id, 'session_created', {
        name: input.name,
        source: input.source,
        filter,
        from: input.from,
        to: input.to,
        timeZone: input.timeZone,
        settings,
        fileIds: input.fileIds
      })
    })()
    return this.session(id)
  }

  private fileOfProfile(fileId: string, profileId: string): void {
    const row = this.db.prepare('select profile_id from recon_files where id = ?').get(fileId) as { profile_id: string } | undefined
    if (!row) throw new AppError('file_not_found', `No imported statement ${fileId}.`)
    if (row.profile_id !== profileId)
      throw new AppError('profile_mismatch', 'That statement was imported under another profile; test and live never mix.')
  }

  addFiles(sessionId: string, fileIds: string[]): SessionInfo {
    const session = this.openSession(sessionId)
    for (const fileId of fileIds) this.fileOfProfile(fileId, session.profileId)
    this.db.transaction(() => {
      for (const fileId of fileIds)
        this.db.prepare('insert or ignore into recon_session_files (session_id, file_id) values (?, ?)').run(sessionId, fileId)
      this.event(sessionId, 'files_added', { fileIds })
    })()
    return this.session(sessionId)
  }

  updateSettings(sessionId: string, settings: Partial<ReconSettings>): SessionInfo {
    const session = this.openSession(sessionId)
    const next = checkSettings({ ...session.settings, ...settings })
    this.db.transaction(() => {
      this.db.prepare('update recon_sessions set settings = ? where id = ?').run(JSON.stringify(next), sessionId)
      this.event(sessionId, 'settings_changed', { settings: next })
    })()
    return this.session(sessionId)
  }

  session(id: string): SessionInfo {
    const row = this.db.prepare('select * from recon_sessions where id = ?').get(id) as SessionRow | undefined
    if (!row) throw new AppError('session_not_found', `No reconciliation session ${id}.`)
    const files = (
      this.db.prepare('select file_id from recon_session_files where session_id = ? order by file_id').all(id) as { file_id: string }[]
    ).map((f) => this.file(f.file_id))
    const counts = row.last_run_at ? this.totals(id, row).counts : null
    return {
      id: row.id,
      profileId: row.profile_id,
      name: row.name,
      source: row.source,
      filter: JSON.parse(row.source_filter) as SourceFilter,
      from: row.period_from,
      to: row.period_to,
      timeZone: row.time_zone,
      settings: JSON.parse(row.settings) as ReconSettings,
      files,
      createdAt: row.created_at,
      createdBy: row.created_by,
      lastRunAt: row.last_run_at,
      closedAt: row.closed_at,
      closedBy: row.closed_by,
      counts
    }
  }

  sessions(profileId: string): SessionInfo[] {
    return (
      this.db.prepare('select id from recon_sessions where profile_id = ? order by created_at desc, id').all(profileId) as { id: string }[]
    ).map((r) => this.session(r.id))
  }

  /**
   * The session's summary totals as stored with its last run and kept up to date by each decision;
   * a session stored before summaries were kept has them worked out once from its items, and kept.
   */
  totals(sessionId: string, row?: Pick<SessionRow, 'summary' | 'settings'>): SummaryTotals {
    const stored =
      row ??
      (this.db.prepare('select summary, settings from recon_sessions where id = ?').get(sessionId) as
        Pick<SessionRow, 'summary' | 'settings'> | undefined)
    if (!stored) throw new AppError('session_not_found', `No reconciliation session ${sessionId}.`)
    if (stored.summary) return (JSON.parse(stored.summary) as StoredSummary).totals
    const settings = JSON.parse(stored.settings) as ReconSettings
    const totals = summarise(this.allItems(sessionId), settings, this.fold(sessionId).adjustments)
    this.storeTotals(sessionId, settings, totals)
    return totals
  }

  private storeTotals(sessionId: string, settings: ReconSettings, totals: SummaryTotals): void {
    const stored: StoredSummary = { settings, totals }
    this.db.prepare('update recon_sessions set summary = ? where id = ?').run(JSON.stringify(stored), sessionId)
  }

  private openSession(sessionId: string): SessionInfo {
    const session = this.session(sessionId)
    if (session.closedAt)
      throw new AppError(
        'session_closed',
        `The session "${session.name}" was closed by ${session.closedBy} at ${session.closedAt}; reopen it (with a reason) to change it.`
      )
    return session
  }

  private event(sessionId: string, kind: string, payload: Record<string, unknown>): AuditEvent {
    return appendEvent(this.db, sessionId, kind, payload, () => this.now(), this.user())
  }

  events(sessionId: string): AuditEvent[] {
    this.session(sessionId)
    return sessionEvents(this.db, sessionId)
  }

  /** What the reports of a session are written from: its stored items (read as they are written), decisions and events. */
  reportInput(sessionId: string, profile: { name: string; mode: string }): ReportInput {
    return {
      session: this.session(sessionId),
      profile,
      items: () => this.allItems(sessionId),
      folded: this.fold(sessionId),
      events: this.events(sessionId)
    }
  }

  // ---- runs -------------------------------------------------------------------------------

  /** Runs the engine over the session's inputs and decisions (yielding to the event loop as it goes) and stores the result in place of the last one. */
  async run(
    sessionId: string,
    options: { signal?: AbortSignal; onProgress?: (phase: string, done: number, total: number) => void } = {}
  ): Promise<RunOutcome> {
    const session = this.openSession(sessionId)
    const { result, folded, unreadable, notes } = await this.compute(session, options)
    const items = materialise(result, folded)
    const totals = summarise(items, session.settings, folded.adjustments)
    const counts = totals.counts
    options.signal?.throwIfAborted()
    this.db.transaction(() => {
      this.db.prepare('delete from recon_items where session_id = ?').run(sessionId)
      const insert = this.db.prepare(
        'insert into recon_items (session_id, position, item_key, outcome, data, currency, day, provider_minor, file_minor, search) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
      )
      items.forEach((item, position) => {
        const c = itemColumns(item)
        insert.run(
          sessionId,
          position,
          item.key,
          item.outcome,
          JSON.stringify(item),
          c.currency,
          c.day,
          c.providerMinor,
          c.fileMinor,
          c.search
        )
      })
      this.db.prepare('update recon_sessions set last_run_at = ? where id = ?').run(this.now().toISOString(), sessionId)
      this.storeTotals(sessionId, session.settings, totals)
      this.event(sessionId, 'run', {
        ruleVersion: RULE_VERSION,
        providerRecords: result.provider.length,
        fileRows: result.file.length,
        counts,
        leftOutFailed: result.leftOutFailed,
        leftOutOutsidePeriod: result.leftOutOutsidePeriod,
        unreadable
      })
    })()
    return {
      session: this.session(sessionId),
      counts,
      items: items.length,
      leftOutFailed: result.leftOutFailed,
      leftOutOutsidePeriod: result.leftOutOutsidePeriod,
      unreadable,
      notes
    }
  }

  /** The engine's answer for the session as it stands, without storing anything (what a run would store). */
  async compute(
    session: SessionInfo,
    options: { signal?: AbortSignal; onProgress?: (phase: string, done: number, total: number) => void } = {}
  ): Promise<{ result: MatchResult; folded: FoldedDecisions; unreadable: number; notes: string[] }> {
    // A line may be dated up to daysAfter past its record, or daysBefore ahead of it: records that far outside the period are read too.
    const reach = { before: session.settings.daysAfter, after: session.settings.daysBefore }
    const side = loadProviderSide(this.db, {
      profileId: session.profileId,
      source: session.source,
      filter: session.filter,
      from: session.from,
      to: session.to,
      timeZone: session.timeZone,
      reach
    })
    const file = this.fileRows(session)
    const { records, notes } = inFileCurrencies(side.records, file)
    const folded = this.fold(session.id)
    const result = await runMatchAsync(records, file, session.settings, folded.engine, options)
    return { result, folded, unreadable: side.unreadable, notes: [...side.notes, ...notes] }
  }

  /** The session's statement rows within its period; a row in two of its files counts once. */
  private fileRows(session: SessionInfo): EngineFileRow[] {
    const rows = this.db
      .prepare(
        `select f.id, r.row_id, r.line, r.date, r.amount_minor, r.currency, r.reference, r.description, r.counterparty
         from recon_session_files s join recon_files f on f.id = s.file_id join recon_file_rows r on r.file_num = f.num
         where s.session_id = ? and r.date >= ? and r.date <= ? order by f.num, r.line`
      )
      .raw(true)
      .iterate(session.id, session.from, session.to) as Iterable<
      [string, string, number, string, number, string, string | null, string | null, string | null]
    >
    const seen = new Set<string>()
    const out: EngineFileRow[] = []
    for (const [fileId, id, line, date, amount, currency, reference, description, counterparty] of rows) {
      if (seen.has(id)) continue
      seen.add(id)
      out.push({ id, fileId, line, date, amountMinor: amount, currency, reference, description, counterparty })
    }
    return out
  }

  /** Folds the audit events into what the engine and the report need. */
  fold(sessionId: string): FoldedDecisions {
    const pinned = new Map<string, PinnedMatch>()
    const dismissed = new Set<string>()
    const notes: FoldedDecisions['notes'] = new Map()
    const adjustments: AdjustmentInfo[] = []
    let reopenedAt: string | null = null
    const annotate = (
      key: string,
      at: string,
      by: string,
      change: Partial<{ note: string | null; reasonCode: string | null; resolved: boolean }>
    ): void => {
      const current = notes.get(key) ?? { note: null, reasonCode: null, resolved: false, by, at }
      notes.set(key, { ...current, ...change, by, at })
    }
    const events = sessionEvents(this.db, sessionId)
    const undone = undoneEvents(events)
    for (const e of events) {
      if (undone.has(e.seq)) continue
      const p = e.payload as Record<string, unknown>
      const ids = (): { providerIds: string[]; fileIds: string[] } => ({
        providerIds: (p['providerIds'] as string[]) ?? [],
        fileIds: (p['fileIds'] as string[]) ?? []
      })
      switch (e.kind) {
        case 'accept':
        case 'match': {
          const { providerIds, fileIds } = ids()
          const key = pairKey(providerIds, fileIds)
          pinned.set(key, { kind: e.kind === 'accept' ? 'accepted' : 'manual', providerIds, fileIds })
          dismissed.delete(key)
          annotate(key, e.at, e.user, {})
          break
        }
        case 'reject':
        case 'unmatch': {
          const { providerIds, fileIds } = ids()
          const key = pairKey(providerIds, fileIds)
          pinned.delete(key)
          dismissed.add(key)
          break
        }
        case 'note':
          annotate(p['itemKey'] as string, e.at, e.user, { note: (p['note'] as string) || null })
          break
        case 'reason':
          annotate(p['itemKey'] as string, e.at, e.user, { reasonCode: (p['code'] as string) || null })
          break
        case 'resolve':
          annotate(p['itemKey'] as string, e.at, e.user, { resolved: p['resolved'] === true })
          break
        case 'adjust':
          adjustments.push({
            currency: p['currency'] as string,
            amountMinor: p['amountMinor'] as number,
            reason: p['reason'] as string,
            itemKey: (p['itemKey'] as string | undefined) ?? null,
            by: e.user,
            at: e.at
          })
          break
        case 'reopen':
          reopenedAt ??= e.at
          break
      }
    }
    return { engine: { pinned: [...pinned.values()], dismissed }, notes, adjustments, reopenedAt }
  }

  // ---- decisions --------------------------------------------------------------------------

  /** Records one decision as an audit event, then runs the session again so its result shows it. */
  /**
   * Keeps one decision as an audit event and shows it in the result. A decision that changes only
   * its own item (a note, a reason, resolved, an accepted suggestion) or only the totals (an
   * adjustment) is applied in place, item and totals in the same transaction as the event; any
   * other (reject, match, unmatch, undo) can change what else matches, so the session is run again.
   */
  async decide(sessionId: string, decision: Decision): Promise<{ session: SessionInfo; inPlace: boolean; item: ReconItem | null }> {
    const session = this.openSession(sessionId)
    const payload = this.decisionPayload(session, decision)
    const applied = this.db.transaction(() => {
      const event = this.event(sessionId, decision.kind, payload)
      return IN_PLACE.has(decision.kind) && session.lastRunAt !== null ? this.applyInPlace(session, decision, event) : false
    })()
    if (applied !== false) return { session: this.session(sessionId), inPlace: true, item: applied === true ? null : applied }
    return { session: (await this.run(sessionId)).session, inPlace: false, item: null }
  }

  /** Applies a local decision to the stored item and totals: the item as it is now (true: only the totals changed), or false when it cannot be (the settings changed since the run). */
  private applyInPlace(session: SessionInfo, decision: Decision, event: AuditEvent): ReconItem | boolean {
    const stored = this.db.prepare('select summary from recon_sessions where id = ?').get(session.id) as { summary: string | null }
    if (!stored.summary) return false
    const { settings, totals } = JSON.parse(stored.summary) as StoredSummary
    if (JSON.stringify(settings) !== JSON.stringify(session.settings)) return false
    const next = new Totals(settings, totals)
    if (decision.kind === 'adjust') {
      next.adjust(event.payload['currency'] as string, event.payload['amountMinor'] as number)
      this.storeTotals(session.id, settings, next.result())
      return true
    }
    if (!('itemKey' in decision) || !decision.itemKey) return false
    const row = this.db
      .prepare('select position, data from recon_items where session_id = ? and item_key = ?')
      .get(session.id, decision.itemKey) as { position: number; data: string } | undefined
    if (!row) return false
    const item = JSON.parse(row.data) as ReconItem
    const annotation = { note: item.note, reasonCode: item.reasonCode, resolved: item.resolved, by: event.user, at: event.at }
    let replaced: ReconItem
    if (decision.kind === 'note') replaced = { ...item, note: decision.note || null, decidedBy: event.user, decidedAt: event.at }
    else if (decision.kind === 'reason')
      replaced = { ...item, reasonCode: decision.code || null, decidedBy: event.user, decidedAt: event.at }
    else if (decision.kind === 'resolve') replaced = { ...item, resolved: decision.resolved, decidedBy: event.user, decidedAt: event.at }
    else if (decision.kind === 'accept') {
      // What a run would make of the pinned pair: the engine over just its members (nothing else can take them).
      const result = runMatch(
        item.provider.map((p) => engineProvider(p, session)),
        item.file.map(engineFileRow),
        settings,
        {
          pinned: [{ kind: 'accepted', providerIds: item.provider.map((p) => p.id), fileIds: item.file.map((f) => f.id) }],
          dismissed: new Set()
        }
      )
      const [made, ...rest] = materialise(result, {
        engine: NO_DECISIONS,
        notes: new Map([[item.key, annotation]]),
        adjustments: [],
        reopenedAt: null
      })
      if (!made || rest.length > 0 || made.decision !== 'accepted' || made.key !== item.key) return false
      replaced = made
    } else return false
    next.add(item, -1)
    next.add(replaced)
    const c = itemColumns(replaced)
    this.db
      .prepare(
        'update recon_items set outcome = ?, data = ?, currency = ?, day = ?, provider_minor = ?, file_minor = ?, search = ? where session_id = ? and position = ?'
      )
      .run(replaced.outcome, JSON.stringify(replaced), c.currency, c.day, c.providerMinor, c.fileMinor, c.search, session.id, row.position)
    this.storeTotals(session.id, settings, next.result())
    return replaced
  }

  private decisionPayload(session: SessionInfo, decision: Decision): Record<string, unknown> {
    const item = (key: string): ReconItem => {
      const found = this.item(session.id, key)
      if (!found) throw new AppError('item_not_found', `No item "${key}" in the session's last run; run it again and pick the item anew.`)
      return found
    }
    const members = (it: ReconItem): { providerIds: string[]; fileIds: string[]; itemKey: string } => ({
      providerIds: it.provider.map((p) => p.id),
      fileIds: it.file.map((f) => f.id),
      itemKey: it.key
    })
    switch (decision.kind) {
      case 'accept': {
        const it = item(decision.itemKey)
        if (it.outcome !== 'suggested')
          throw new AppError('not_a_suggestion', `Only a suggestion can be accepted; this item is ${it.outcome}.`)
        return members(it)
      }
      case 'reject': {
        const it = item(decision.itemKey)
        if (it.outcome !== 'suggested')
          throw new AppError('not_a_suggestion', `Only a suggestion can be rejected; this item is ${it.outcome} (use unmatch for a match).`)
        return members(it)
      }
      case 'unmatch': {
        const it = item(decision.itemKey)
        if (it.provider.length === 0 || it.file.length === 0 || it.outcome === 'suggested' || it.outcome === 'ambiguous') {
          throw new AppError('not_matched', `Only a match can be undone; this item is ${it.outcome}.`)
        }
        return members(it)
      }
      case 'match': {
        if (decision.providerIds.length === 0 || decision.fileIds.length === 0)
          throw new AppError('invalid_match', 'A match needs at least one provider record and one file line.')
        if (decision.providerIds.length > 1 && decision.fileIds.length > 1)
          throw new AppError('invalid_match', 'Match one to one, one to many or many to one; not many to many.')
        const keys = new Set<string>()
        const found = new Set<string>()
        for (const it of this.itemsContaining(session.id, decision.providerIds, decision.fileIds)) {
          keys.add(it.key)
          for (const p of it.provider) if (decision.providerIds.includes(p.id)) found.add(p.id)
          for (const f of it.file) if (decision.fileIds.includes(f.id)) found.add(f.id)
        }
        const missing = [...decision.providerIds, ...decision.fileIds].filter((id) => !found.has(id))
        if (missing.length > 0) throw new AppError('item_not_found', `Not in the session's last run: ${missing.slice(0, 5).join(', ')}.`)
        return {
          providerIds: [...decision.providerIds].sort(),
          fileIds: [...decision.fileIds].sort(),
          itemKey: pairKey(decision.providerIds, decision.fileIds),
          replaces: [...keys].sort()
        }
      }
      case 'note':
        item(decision.itemKey)
        return { itemKey: decision.itemKey, note: decision.note }
      case 'reason':
        item(decision.itemKey)
        return { itemKey: decision.itemKey, code: decision.code }
      case 'resolve':
        item(decision.itemKey)
        return { itemKey: decision.itemKey, resolved: decision.resolved }
      case 'undo': {
        const events = sessionEvents(this.db, session.id)
        const undone = undoneEvents(events)
        const last = events.filter((e) => UNDOABLE.has(e.kind) && !undone.has(e.seq)).pop()
        if (!last) throw new AppError('nothing_to_undo', 'There is no decision to undo in this session.')
        return {
          undoes: last.seq,
          kind: last.kind,
          ...(typeof last.payload['itemKey'] === 'string' ? { itemKey: last.payload['itemKey'] } : {})
        }
      }
      case 'adjust': {
        if (decision.itemKey) item(decision.itemKey)
        let amountMinor: number
        try {
          amountMinor = parseMajor(decision.amount, decision.currency.toUpperCase())
        } catch (error) {
          throw new AppError('invalid_amount', `Adjustment amount: ${(error as Error).message}`)
        }
        if (decision.reason.trim() === '') throw new AppError('reason_required', 'An adjustment needs a reason.')
        return {
          currency: decision.currency.toUpperCase(),
          amountMinor,
          amount: decision.amount,
          reason: decision.reason.trim(),
          ...(decision.itemKey ? { itemKey: decision.itemKey } : {})
        }
      }
    }
  }

  close(sessionId: string): SessionInfo {
    const session = this.openSession(sessionId)
    if (!session.lastRunAt) throw new AppError('not_run', 'Run the session before closing it.')
    const at = this.now().toISOString()
    this.db.transaction(() => {
      this.db.prepare('update recon_sessions set closed_at = ?, closed_by = ? where id = ?').run(at, this.user(), sessionId)
      this.event(sessionId, 'close', { counts: this.totals(sessionId).counts })
    })()
    return this.session(sessionId)
  }

  reopen(sessionId: string, reason: string): SessionInfo {
    const session = this.session(sessionId)
    if (!session.closedAt) throw new AppError('session_open', `The session "${session.name}" is open already.`)
    if (reason.trim() === '') throw new AppError('reason_required', 'Reopening a closed session needs a reason.')
    this.db.transaction(() => {
      this.db.prepare('update recon_sessions set closed_at = null, closed_by = null where id = ?').run(sessionId)
      this.event(sessionId, 'reopen', { reason: reason.trim(), closedAt: session.closedAt, closedBy: session.closedBy })
    })()
    return this.session(sessionId)
  }

  // ---- reading the result -------------------------------------------------------------------

  items(sessionId: string, options: ItemFilter & { offset?: number; limit?: number } = {}): { total: number; items: ReconItem[] } {
    const { offset, limit, ...filter } = options
    const asked = Object.entries(filter)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k]) => k)
    // Counts and currencies come from the stored totals where they can (a million items are not counted for each page).
    const row = this.db.prepare('select last_run_at, summary, settings from recon_sessions where id = ?').get(sessionId) as
      Pick<SessionRow, 'last_run_at' | 'summary' | 'settings'> | undefined
    const totals = row?.last_run_at ? this.totals(sessionId, row) : null
    const where = filterClause(
      filter,
      asked.some((k) => k === 'minAmount' || k === 'maxAmount') ? (totals?.currencies.map((c) => c.currency) ?? []) : []
    )
    const args = [sessionId, ...where.args]
    const counted = !totals
      ? null
      : asked.length === 0
        ? Object.values(totals.counts).reduce((a, b) => a + b, 0)
        : asked.length === 1 && filter.outcome
          ? totals.counts[filter.outcome]
          : null
    const total =
      counted ?? (this.db.prepare(`select count(*) as n from recon_items where session_id = ?${where.sql}`).get(...args) as { n: number }).n
    const rows = this.db
      .prepare(`select data from recon_items where session_id = ?${where.sql} order by position limit ? offset ?`)
      .all(...args, limit ?? 500, offset ?? 0) as { data: string }[]
    return { total, items: rows.map((r) => JSON.parse(r.data) as ReconItem) }
  }

  /** The suggestions a filter shows that score at least `minScore` and are not decided yet (groups have no score and are never among them). */
  private suggestionsAbove(sessionId: string, filter: ItemFilter, minScore: number): ReconItem[] {
    const where = filterClause(
      { ...filter, outcome: 'suggested' },
      filter.minAmount || filter.maxAmount ? this.totals(sessionId).currencies.map((c) => c.currency) : []
    )
    const rows = this.db
      .prepare(`select data from recon_items where session_id = ?${where.sql} order by position`)
      .all(sessionId, ...where.args) as { data: string }[]
    return rows.map((r) => JSON.parse(r.data) as ReconItem).filter((i) => i.score !== null && i.score >= minScore && i.decision === null)
  }

  /** What accepting every suggestion above a score would take: how many, and the file's total per currency (shown before the user confirms). */
  previewAcceptAll(
    sessionId: string,
    filter: ItemFilter,
    minScore: number
  ): { count: number; totals: { currency: string; fileMinor: number; providerMinor: number }[] } {
    const byCurrency = new Map<string, { currency: string; fileMinor: number; providerMinor: number }>()
    const found = this.suggestionsAbove(sessionId, filter, minScore)
    for (const item of found) {
      const currency = item.file[0]?.currency ?? item.provider[0]?.currency ?? ''
      const t = byCurrency.get(currency) ?? { currency, fileMinor: 0, providerMinor: 0 }
      t.fileMinor += item.file.reduce((sum, f) => sum + f.amountMinor, 0)
      t.providerMinor += item.provider.reduce((sum, p) => sum + p.amountMinor, 0)
      byCurrency.set(currency, t)
    }
    return { count: found.length, totals: [...byCurrency.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1)) }
  }

  /** Accepts every suggestion above a score that the filter shows, each as its own decision (and audit event), in place. */
  async acceptAll(sessionId: string, filter: ItemFilter, minScore: number): Promise<{ accepted: number; session: SessionInfo }> {
    this.openSession(sessionId)
    let accepted = 0
    for (const item of this.suggestionsAbove(sessionId, filter, minScore)) {
      await this.decide(sessionId, { kind: 'accept', itemKey: item.key })
      accepted++
    }
    return { accepted, session: this.session(sessionId) }
  }

  /** Every stored item in order, one at a time (reports of a million items). */
  *allItems(sessionId: string): Generator<ReconItem> {
    for (const row of this.db
      .prepare('select data from recon_items where session_id = ? order by position')
      .iterate(sessionId) as Iterable<{ data: string }>)
      yield JSON.parse(row.data) as ReconItem
  }

  item(sessionId: string, key: string): ReconItem | null {
    const row = this.db.prepare('select data from recon_items where session_id = ? and item_key = ?').get(sessionId, key) as
      { data: string } | undefined
    return row ? (JSON.parse(row.data) as ReconItem) : null
  }

  private itemsContaining(sessionId: string, providerIds: string[], fileIds: string[]): ReconItem[] {
    const wanted = new Set([...providerIds, ...fileIds])
    const out: ReconItem[] = []
    for (const it of this.allItems(sessionId))
      if (it.provider.some((p) => wanted.has(p.id)) || it.file.some((f) => wanted.has(f.id))) out.push(it)
    return out
  }
}

/**
 * A statement holds one account's currencies: provider records in other currencies are left out
 * (and counted in a note), unless the statement names them by reference (then they show as
 * currency_differs).
 */
function inFileCurrencies(records: EngineProvider[], file: EngineFileRow[]): { records: EngineProvider[]; notes: string[] } {
  if (file.length === 0) return { records, notes: [] }
  const currencies = new Set(file.map((f) => f.currency))
  const named = keysNamedBy(file)
  const left = new Map<string, number>()
  const kept = records.filter((p) => {
    if (currencies.has(p.currency)) return true
    if ([p.reference, p.serviceReference, ...(p.keys ?? [])].some((k) => k && named.has(normaliseReference(k)))) return true
    // Only the period's own records are counted: those read from just outside it are another period's.
    if (p.outsidePeriod !== true) left.set(p.currency, (left.get(p.currency) ?? 0) + 1)
    return false
  })
  const notes =
    left.size === 0
      ? []
      : [
          `left out, in currencies the statements do not hold: ${[...left]
            .sort()
            .map(([c, n]) => `${n} ${c}`)
            .join(', ')}`
        ]
  return { records: kept, notes }
}

function stripEmpty(mapping: Partial<StatementMapping>): Partial<StatementMapping> {
  return Object.fromEntries(
    Object.entries(mapping).filter(([k, v]) => k !== 'columns' && v !== null && v !== undefined)
  ) as Partial<StatementMapping>
}

export function checkSettings(settings: ReconSettings): ReconSettings {
  if (!/^\d+(\.\d+)?$/.test(settings.amountTolerance))
    throw new AppError(
      'invalid_settings',
      `The amount tolerance must be a plain non-negative amount such as 0 or 1.50 (got "${settings.amountTolerance}").`
    )
  for (const [name, value, max] of [
    ['daysBefore', settings.daysBefore, 366],
    ['daysAfter', settings.daysAfter, 366],
    ['groupSearchLimit', settings.groupSearchLimit, 40]
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > max)
      throw new AppError('invalid_settings', `${name} must be a whole number from 0 to ${max} (got ${value}).`)
  }
  if (!(settings.ambiguityMargin >= 0 && settings.ambiguityMargin <= 10))
    throw new AppError('invalid_settings', `ambiguityMargin must be from 0 to 10 (got ${settings.ambiguityMargin}).`)
  return {
    amountTolerance: settings.amountTolerance,
    daysBefore: settings.daysBefore,
    daysAfter: settings.daysAfter,
    netOfFees: settings.netOfFees === true,
    ambiguityMargin: settings.ambiguityMargin,
    groupSearchLimit: settings.groupSearchLimit
  }
}

/** The engine's result as report items: both sides' key fields, difference, decision and the user's notes. */
export function materialise(result: MatchResult, folded: FoldedDecisions): ReconItem[] {
  const { items } = result
  const out: ReconItem[] = new Array(items.length)
  for (let k = 0; k < items.length; k++) {
    let outside: string[] | null = null
    const provider: ProviderSide[] = items.providers(k).map((i) => {
      const p = result.provider[i] as MatchResult['provider'][number]
      if (p.outsidePeriod === true)
        (outside ??= []).push(`record ${p.id} is dated ${p.day}, outside the period: a line in it settles the record`)
      return {
        id: p.id,
        reference: p.reference,
        serviceReference: p.serviceReference,
        date: p.day,
        amountMinor: p.amountMinor,
        feesMinor: p.feesMinor,
        currency: p.currency,
        status: p.status,
        channel: p.channel,
        name: p.text
      }
    })
    const file: FileSide[] = items.files(k).map((i) => {
      const f = result.file[i] as EngineFileRow
      return {
        id: f.id,
        fileId: f.fileId,
        line: f.line,
        date: f.date,
        reference: f.reference,
        description: f.description,
        counterparty: f.counterparty,
        amountMinor: f.amountMinor,
        currency: f.currency
      }
    })
    const key = pairKey(
      provider.map((p) => p.id),
      file.map((f) => f.id)
    )
    const currencies = new Set([...provider.map((p) => p.currency), ...file.map((f) => f.currency)])
    const differenceMinor =
      currencies.size === 1
        ? file.reduce((s, f) => s + f.amountMinor, 0) - provider.reduce((s, p) => s + expectedAmount(p, result.netOfFees), 0)
        : null
    const annotation = folded.notes.get(key)
    out[k] = {
      key,
      outcome: items.outcome(k),
      provider,
      file,
      differenceMinor,
      score: items.score(k),
      reasons: outside === null ? (items.reasons(k) as string[]) : [...items.reasons(k), ...(outside as string[])],
      decision: items.decision(k),
      note: annotation?.note ?? null,
      reasonCode: annotation?.reasonCode ?? null,
      resolved: annotation?.resolved ?? false,
      decidedBy: annotation?.by ?? null,
      decidedAt: annotation?.at ?? null
    }
  }
  return out
}

/** Decisions that change only their own item or the totals: applied in place, without a run. */
const IN_PLACE = new Set<Decision['kind']>(['note', 'reason', 'resolve', 'accept', 'adjust'])

/** What a run keeps of a session's totals: the totals and the settings they were summed under. */
interface StoredSummary {
  settings: ReconSettings
  totals: SummaryTotals
}

/** A stored item's record as the engine saw it, outside the period again when its day is. */
function engineProvider(p: ProviderSide, session: SessionInfo): EngineProvider {
  return {
    id: p.id,
    reference: p.reference,
    serviceReference: p.serviceReference,
    day: p.date,
    amountMinor: p.amountMinor,
    feesMinor: p.feesMinor,
    currency: p.currency,
    status: p.status,
    channel: p.channel,
    text: p.name,
    outsidePeriod: outsideThePeriod(session.source, p.date, session)
  }
}

function engineFileRow(f: FileSide): EngineFileRow {
  return {
    id: f.id,
    fileId: f.fileId,
    line: f.line,
    date: f.date,
    amountMinor: f.amountMinor,
    currency: f.currency,
    reference: f.reference,
    description: f.description,
    counterparty: f.counterparty
  }
}

/** Decisions an undo can take back (not runs, closes, reopens or undos themselves). */
const UNDOABLE = new Set(['accept', 'reject', 'match', 'unmatch', 'note', 'reason', 'resolve', 'adjust'])

/** The events undone, by seq: each undo names the event it takes back. */
function undoneEvents(events: readonly AuditEvent[]): Set<number> {
  const undone = new Set<number>()
  for (const e of events) if (e.kind === 'undo' && typeof e.payload['undoes'] === 'number') undone.add(e.payload['undoes'])
  return undone
}
