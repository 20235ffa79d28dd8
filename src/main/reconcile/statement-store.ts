// Imported statements: reading a file (with a saved preset when its headers match), storing its rows, finding rows imported before, and the saved presets.
import type Database from 'better-sqlite3'
import { createHash, randomUUID } from 'node:crypto'
import type { ImportedFileInfo, ParseProblem, ReconSource, StatementMapping, StatementProof } from '../../shared/reconcile'
import { accountKey } from '../../shared/periods'
import { AppError, isAppError } from '../errors'
import { pauseFor } from '../jobs/pause'
import type { ReconContext } from './context'
import type { ParsedStatement } from './import/parsed-statement'
import type { StatementRows } from './import/statement-rows'
import { parseStatementFile, type ReadOptions } from './import/read-file'
import { keysNamedBy, normaliseReference } from './references'

/** The readings a held file keeps: the last mapping's and a preset's (a reading of a million lines is hundreds of MB). */
const READINGS_KEPT = 2

/**
 * One file's latest readings by mapping (and password): a file held between its preview and its import is read once per
 * mapping, the preset's and the import's included. Each reading is the parser's whole result, never changed afterwards.
 */
export class StatementReads {
  private readonly byMapping = new Map<string, Promise<ParsedStatement[]>>()
  /** How many times the bytes were actually parsed. */
  parses = 0

  read(bytes: Uint8Array, name: string, mapping: Partial<StatementMapping>, options: ReadOptions): Promise<ParsedStatement[]> {
    const key = JSON.stringify([mapping, options.password ?? null, options.maxBytes ?? null])
    const known = this.byMapping.get(key)
    if (known) {
      // The most recently used last: the oldest goes first.
      this.byMapping.delete(key)
      this.byMapping.set(key, known)
      return known
    }
    this.parses++
    const reading = parseStatementFile(bytes, name, mapping, options)
    this.byMapping.set(key, reading)
    for (const old of [...this.byMapping.keys()].slice(0, -READINGS_KEPT)) this.byMapping.delete(old)
    // A refusal is not kept: the same file asked again is read again (a password given since, say).
    reading.catch(() => this.byMapping.delete(key))
    return reading
  }
}

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
  /** Of a file holding several statements, only the one of this account (or sheet); a file of one statement stating no account is read whole. */
  account?: string | undefined
  /** Opens a password-protected PDF; only handed to its reader, never stored. */
  password?: string | undefined
  /** The most a file (or one part of a workbook, inflated) may hold; else the cache's setting `import.max_bytes`, else 512 MB. */
  maxBytes?: number | undefined
  /** The id to store a statement under (a shared session replayed keeps its files' ids, so its items' keys are the same everywhere); else a new one. */
  idOf?: ((statement: { account: string | null; label: string | null }) => string | undefined) | undefined
  /** The file's readings so far (its preview's): a mapping read before is not read again. */
  reads?: StatementReads | undefined
  /** Whose records a statement without currencies is offered the currency of (its question's one choice): payments unless said. */
  currencyFrom?: ReconSource | undefined
  /** A cancel (the CLI's Ctrl+C), heard once the file is read, before anything is stored: nothing is. */
  signal?: AbortSignal | undefined
}

export type ImportOutcome = (
  | { status: 'imported'; file: ImportedFileInfo; files: ImportedFileInfo[]; skippedSameRows: number }
  | { status: 'preview' | 'questions' }
  | { status: 'same-file'; existing: ImportedFileInfo; existingFiles: ImportedFileInfo[] }
  | { status: 'same-rows'; sameRows: number }
) & {
  /** The statement shown first: the first with a question when there are any, else the file's first. */
  parsed: ParsedStatement
  /** Every statement of the file that is imported (one per sheet or account; only the one asked for with `account`). */
  statements: ParsedStatement[]
  presetApplied: string | null
}

/** The statements an import stored, or found stored by an earlier import of the same file; none when it stored nothing. */
export function storedFileIds(outcome: ImportOutcome): string[] {
  if (outcome.status === 'imported') return outcome.files.map((f) => f.id)
  if (outcome.status === 'same-file') return outcome.existingFiles.map((f) => f.id)
  return []
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
  proof: string | null
  format: string
  page_starts: string | null
  statement: string | null
  account: string | null
}

/** Statement rows per insert statement (10 values each: 5,000, well under SQLite's limit of 32,766). */
const ROW_BATCH = 500

/** Formats whose columns the user maps (and a saved preset may map). */
const TABULAR = new Set(['csv', 'xlsx', 'xls', 'qif', 'pdf'])

export class Statements {
  constructor(private readonly ctx: ReconContext) {}

  /**
   * Reads a statement file (every statement it holds, or the one of `account`), applies a saved
   * preset when its headers match, and stores each statement unless asked only to preview or
   * something needs the user.
   */
  async importStatement(request: ImportRequest): Promise<ImportOutcome> {
    const read = { password: request.password, maxBytes: request.maxBytes ?? this.maxBytes() }
    const reads = request.reads ?? new StatementReads()
    const parse = (mapping: Partial<StatementMapping>): Promise<ParsedStatement[]> => reads.read(request.bytes, request.name, mapping, read)
    let statements = await parse(request.mapping ?? {})
    let presetApplied: string | null = null
    const head = statements[0] as ParsedStatement
    if (TABULAR.has(head.format) && (!request.mapping?.columns || Object.keys(request.mapping.columns).length === 0)) {
      const preset = [head.headerSignature, ...head.rowSignatures].map((s) => this.presetFor(s)).find((p) => p !== null) ?? null
      if (preset) {
        const mapping = { ...preset.mapping, ...stripEmpty(request.mapping ?? {}), columns: preset.mapping.columns }
        try {
          statements = await parse(mapping)
        } catch (error) {
          // A preset's currency fills only a file that states none: this one states its own.
          if (!isAppError(error, 'currency_conflict') || request.mapping?.defaultCurrency) throw error
          statements = await parse({ ...mapping, defaultCurrency: null })
        }
        presetApplied = preset.sourceName
      }
    }
    // An account chooses among the statements of a file that names them; a file of one statement stating none is that account's.
    if (request.account !== undefined && (statements.length > 1 || statements.some((s) => s.account !== null)))
      statements = this.ofAccount(statements, request.account, request.name)
    statements = await this.withCurrencyOffered(statements, request, reads)
    const parsed = statements.find((s) => s.questions.length > 0) ?? (statements[0] as ParsedStatement)
    const common = { parsed, statements, presetApplied }
    const existing = this.ctx.db
      .prepare('select id from recon_files where profile_id = ? and sha256 = ? order by imported_at, num')
      .pluck()
      .all(request.profileId, parsed.sha256) as string[]
    if (existing.length > 0 && request.ifSameFile !== 'import-again' && !request.previewOnly) {
      const existingFiles = existing.map((id) => this.file(id))
      // The same file, read before in another currency than the one now given: the earlier reading is not quietly used.
      const given = request.mapping?.defaultCurrency
      const before = existingFiles.map((f) => f.proof?.currency ?? f.mapping.defaultCurrency).find((c) => c)
      if (given && before && given.toUpperCase() !== before)
        throw new AppError(
          'currency_conflict',
          `${request.name} was imported before (${existingFiles[0]?.importedAt} by ${existingFiles[0]?.importedBy}) in ${before}, not the ${given.toUpperCase()} given now. Leave the currency out to use that import, or import it again.`
        )
      return { status: 'same-file', existing: existingFiles[0] as ImportedFileInfo, existingFiles, ...common }
    }
    if (statements.some((s) => s.questions.length > 0)) return { status: 'questions', ...common }
    if (request.previewOnly) return { status: 'preview', ...common }
    const known = this.knownRowIds(
      request.profileId,
      statements.map((s) => s.rows)
    )
    if (known.size > 0 && existing.length === 0 && request.ifSameRows === undefined)
      return { status: 'same-rows', sameRows: known.size, ...common }
    if (request.signal) await pauseFor(request.signal)()
    const ids: string[] = []
    let skippedSameRows = 0
    this.ctx.db.transaction(() => {
      for (const statement of statements) {
        const skip = request.ifSameRows === 'skip' && known.size > 0 ? known : null
        // The file's bytes are kept once, with its first statement; the others point at it.
        const stored = this.store(request, statement, skip, ids[0] ?? null)
        skippedSameRows += statement.rows.length - stored.rows
        ids.push(stored.id)
      }
    })()
    const files = ids.map((id) => this.file(id))
    return { status: 'imported', file: files[0] as ImportedFileInfo, files, skippedSameRows, ...common }
  }

  /**
   * A statement without currencies asks for one: its question offers the currency of the provider records it names, the one
   * place the app's preview and the CLI get it from. On copies: a reading is kept as read.
   */
  private async withCurrencyOffered(
    statements: ParsedStatement[],
    request: ImportRequest,
    reads: StatementReads
  ): Promise<ParsedStatement[]> {
    const asks = (s: ParsedStatement): boolean => s.questions.some((q) => q.field === 'defaultCurrency' && q.choices.length === 0)
    if (!statements.some(asks)) return statements
    const named = await this.statementCurrency(
      request.profileId,
      request.currencyFrom ?? 'payments',
      request.bytes,
      request.name,
      request.mapping ?? {},
      request.password,
      reads
    )
    if (named === null) return statements
    return statements.map((s) =>
      asks(s)
        ? {
            ...s,
            questions: s.questions.map((q) => (q.field === 'defaultCurrency' && q.choices.length === 0 ? { ...q, choices: [named] } : q))
          }
        : s
    )
  }

  /** The statements of one account (as the file writes it, or by its letters and digits); refused naming the accounts the file holds. */
  private ofAccount(statements: ParsedStatement[], account: string, name: string): ParsedStatement[] {
    const chosen = statements.filter(
      (s) => accountKey(s.account ?? '') === accountKey(account) || (s.sheet !== null && s.sheet === account)
    )
    if (chosen.length > 0) return chosen
    const held = statements.map((s) => s.account ?? (s.sheet ? `sheet ${s.sheet}` : '(no account stated)'))
    throw new AppError('no_such_account', `${name} holds no statement of account ${account}; it holds: ${held.join(', ')}.`)
  }

  /** Stores one statement of a file and its rows but those whose ids are in `skip`; returns its id and how many rows it stored. */
  private store(
    request: ImportRequest,
    parsed: ParsedStatement,
    skip: ReadonlySet<string> | null,
    contentOf: string | null
  ): { id: string; rows: number } {
    const id = request.idOf?.(parsed) ?? randomUUID()
    const rows = parsed.rows
    let rowCount = rows.length
    if (skip) for (let i = 0; i < rows.length; i++) if (skip.has(rows.idAt(i))) rowCount--
    const num = this.ctx.db.prepare('select coalesce(max(num), 0) + 1 from recon_files').pluck().get() as number
    this.ctx.db
      .prepare(
        `insert into recon_files (id, num, profile_id, name, sha256, size, encoding, separator, sheet, header, header_line, mapping, number_form, date_form, row_count, problems, skipped, proof, content_of, imported_at, imported_by, format, statement, account, page_starts)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
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
        rowCount,
        JSON.stringify(parsed.problems),
        JSON.stringify(parsed.skipped),
        parsed.proof === null ? null : JSON.stringify(parsed.proof),
        contentOf,
        this.ctx.now().toISOString(),
        this.ctx.user(),
        parsed.format,
        parsed.label,
        parsed.account,
        parsed.pageStarts === null ? null : JSON.stringify(parsed.pageStarts)
      )
    // The file exactly as imported, for the evidence pack (its SHA-256 is the one above): once per file, in a table of its own.
    if (contentOf === null)
      this.ctx.db
        .prepare('insert into recon_file_contents (file_num, content) values (?, ?)')
        .run(num, Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength))
    // Rows go in BATCH at a time: one statement call per batch, not per row (a million rows in seconds).
    const columns = '(file_num, line, row_id, date, time, amount_minor, currency, reference, description, counterparty)'
    const statement = (n: number): Database.Statement =>
      this.ctx.db.prepare(`insert into recon_file_rows ${columns} values ${Array(n).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`)
    const full = statement(ROW_BATCH)
    const values: unknown[] = new Array(ROW_BATCH * 10)
    let v = 0
    for (let k = 0; k < rows.length; k++) {
      const r = rows.at(k)
      if (skip?.has(r.id)) continue
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
      if (v === values.length) {
        full.run(values)
        v = 0
      }
    }
    if (v > 0) {
      values.length = v
      statement(v / 10).run(values)
    }
    return { id, rows: rowCount }
  }

  /**
   * The currency a statement without one is in: the provider's only currency for this source, or
   * the one whose references the statement names most often. Null when that does not settle it.
   */
  private async statementCurrency(
    profileId: string,
    source: ReconSource,
    bytes: Uint8Array,
    name: string,
    mapping: Partial<StatementMapping>,
    password?: string,
    reads = new StatementReads()
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
      this.ctx.db.prepare(`select distinct currency from ${table} where profile_id = ? and currency is not null`).all(profileId) as {
        currency: string
      }[]
    ).map((r) => r.currency)
    if (currencies.length <= 1) return currencies[0] ?? null
    if (table !== 'payments' && table !== 'transfers') return null
    // Read with a placeholder currency: only the references and descriptions are looked at.
    let read: ParsedStatement[]
    try {
      read = await reads.read(bytes, name, { ...mapping, defaultCurrency: 'USD' }, { password })
    } catch (error) {
      // A file that states a currency of its own for some rows: no guess for the others.
      if (isAppError(error, 'currency_conflict')) return null
      throw error
    }
    const keys = keysNamedBy(
      (function* () {
        for (const s of read) yield* s.rows
      })()
    )
    const hits = new Map<string, number>()
    const rows = this.ctx.db
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

  /** The cache's setting of the most a statement file may hold (import.max_bytes), when it has one. */
  private maxBytes(): number | undefined {
    const value = this.ctx.db.prepare("select value from settings where key = 'import.max_bytes'").pluck().get() as string | undefined
    return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined
  }

  /** How many of these statements' rows were imported before in another file of the profile. */
  sameRows(profileId: string, statements: readonly StatementRows[]): number {
    return this.knownRowIds(profileId, statements).size
  }

  /** The rows of this file that the profile's other files hold already (one pass over their ids). */
  private knownRowIds(profileId: string, statements: readonly StatementRows[]): Set<string> {
    const known = new Set<string>()
    if (statements.every((rows) => rows.length === 0)) return known
    const stored = this.ctx.db
      .prepare('select r.row_id from recon_file_rows r join recon_files f on f.num = r.file_num where f.profile_id = ?')
      .pluck()
      .iterate(profileId) as Iterable<string>
    const before = new Set<string>()
    for (const id of stored) before.add(id)
    if (before.size === 0) return known
    for (const rows of statements)
      for (let i = 0; i < rows.length; i++) {
        const id = rows.idAt(i)
        if (before.has(id)) known.add(id)
      }
    return known
  }

  file(id: string): ImportedFileInfo {
    // Every column but the file's bytes (a statement of a million lines is tens of megabytes).
    const row = this.ctx.db
      .prepare(
        'select id, name, sha256, row_count, problems, imported_at, imported_by, number_form, date_form, encoding, separator, mapping, proof, format, statement, account, page_starts from recon_files where id = ?'
      )
      .get(id) as FileRow | undefined
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
      mapping: JSON.parse(row.mapping) as StatementMapping,
      proof: row.proof === null ? null : (JSON.parse(row.proof) as StatementProof),
      format: row.format,
      statement: row.statement,
      account: row.account,
      pageStarts: row.page_starts === null ? null : (JSON.parse(row.page_starts) as number[])
    }
  }

  files(profileId: string): ImportedFileInfo[] {
    return (
      this.ctx.db.prepare('select id from recon_files where profile_id = ? order by imported_at, id').all(profileId) as { id: string }[]
    ).map((r) => this.file(r.id))
  }

  /** The first and last day a file's rows are dated (a new session's period by default); null for a file without rows. */
  fileDays(profileId: string, fileId: string): { from: string; to: string } | null {
    const row = this.ctx.db
      .prepare(
        'select min(r.date) as "from", max(r.date) as "to" from recon_files f join recon_file_rows r on r.file_num = f.num where f.id = ? and f.profile_id = ?'
      )
      .get(fileId, profileId) as { from: string | null; to: string | null }
    return row.from && row.to ? { from: row.from, to: row.to } : null
  }

  /** The first and last day of a statement's lines, read or (as far as their day was read) not read; null when none has a day. */
  lineDays(id: string): { from: string; to: string } | null {
    const row = this.ctx.db
      .prepare(
        'select min(r.date) as "from", max(r.date) as "to", f.problems from recon_files f left join recon_file_rows r on r.file_num = f.num where f.id = ? group by f.num'
      )
      .get(id) as { from: string | null; to: string | null; problems: string } | undefined
    if (!row) return null
    const days = [row.from, row.to, ...(JSON.parse(row.problems) as ParseProblem[]).map((p) => p.read?.date ?? null)]
      .filter((d): d is string => d !== null)
      .sort()
    return days.length === 0 ? null : { from: days[0] as string, to: days[days.length - 1] as string }
  }

  /** How many of a statement's lines (read, or not read with a day read) are dated from `from` to `to`. */
  linesBetween(id: string, from: string, to: string): number {
    const row = this.ctx.db
      .prepare(
        'select (select count(*) from recon_file_rows r where r.file_num = f.num and r.date >= ? and r.date <= ?) as n, f.problems from recon_files f where f.id = ?'
      )
      .get(from, to, id) as { n: number; problems: string }
    const notRead = (JSON.parse(row.problems) as ParseProblem[]).filter((p) => p.read?.date && p.read.date >= from && p.read.date <= to)
    return row.n + notRead.length
  }

  /** A statement's bytes exactly as imported (checked against its SHA-256), or null for a file imported before they were kept. */
  content(id: string): Buffer | null {
    const row = this.ctx.db
      .prepare(
        `select (select c.content from recon_file_contents c
                  where c.file_num = coalesce((select o.num from recon_files o where o.id = f.content_of), f.num)) as content,
                f.sha256, f.name
           from recon_files f where f.id = ?`
      )
      .get(id) as { content: Buffer | null; sha256: string; name: string } | undefined
    if (!row) throw new AppError('file_not_found', `No imported statement ${id}.`)
    if (row.content === null) return null
    const bytes = row.content
    if (createHash('sha256').update(bytes).digest('hex') !== row.sha256)
      throw new AppError('statement_changed', `The stored copy of ${row.name} is not the file that was imported (its SHA-256 differs).`)
    return bytes
  }

  /** Saves a file's mapping for a source: later files with the same headers are read the same way. */
  savePreset(sourceName: string, headerSignature: string, mapping: StatementMapping): void {
    const { encoding: _encoding, ...kept } = mapping
    this.ctx.db
      .prepare(
        'insert into recon_presets (header_signature, source_name, mapping, saved_at) values (?, ?, ?, ?) on conflict (header_signature) do update set source_name = excluded.source_name, mapping = excluded.mapping, saved_at = excluded.saved_at'
      )
      .run(headerSignature, sourceName, JSON.stringify({ ...kept, encoding: null }), this.ctx.now().toISOString())
  }

  presetFor(headerSignature: string): { sourceName: string; mapping: StatementMapping } | null {
    const row = this.ctx.db.prepare('select source_name, mapping from recon_presets where header_signature = ?').get(headerSignature) as
      { source_name: string; mapping: string } | undefined
    return row ? { sourceName: row.source_name, mapping: JSON.parse(row.mapping) as StatementMapping } : null
  }

  /** Refuses a statement that is not there, or was imported under another profile (test and live never mix). */
  ofProfile(fileId: string, profileId: string): void {
    const row = this.ctx.db.prepare('select profile_id from recon_files where id = ?').get(fileId) as { profile_id: string } | undefined
    if (!row) throw new AppError('file_not_found', `No imported statement ${fileId}.`)
    if (row.profile_id !== profileId)
      throw new AppError('profile_mismatch', 'That statement was imported under another profile; test and live never mix.')
  }
}

function stripEmpty(mapping: Partial<StatementMapping>): Partial<StatementMapping> {
  return Object.fromEntries(
    Object.entries(mapping).filter(([k, v]) => k !== 'columns' && v !== null && v !== undefined)
  ) as Partial<StatementMapping>
}
