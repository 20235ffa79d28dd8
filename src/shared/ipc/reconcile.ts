// The reconciliation domain of the IPC contract: statements in, sessions, runs as jobs, decisions, close and reopen, reports, audit verification.
import { z } from 'zod'
import {
  decisionSchema,
  OUTCOMES,
  RECON_SOURCES,
  reconSettingsSchema,
  SAMPLE_FORMATS,
  type ImportedFileInfo,
  type ImportQuestion,
  type LineNotRead,
  type ParseProblem,
  type ReconItem,
  type ReconSummary,
  type SessionInfo,
  type StatementMapping,
  type StatementProof
} from '../reconcile'
import type { AuditEntry } from '../reconcile-events'
import { call, id, noArgs } from './define'
import type { JobInfo } from './jobs'

const header = z.string().max(200)
/** A column mapping as the user or a mapping file gives it; anything left out is guessed. */
export const mappingSchema = z.strictObject({
  columns: z
    .strictObject({
      date: header.optional(),
      reference: header.optional(),
      amount: header.optional(),
      debit: header.optional(),
      credit: header.optional(),
      indicator: header.optional(),
      currency: header.optional(),
      description: header.optional(),
      counterparty: header.optional(),
      balance: header.optional()
    })
    .optional(),
  dateOrder: z.enum(['ymd', 'dmy', 'mdy']).nullable().optional(),
  decimalMark: z.enum(['.', ',']).nullable().optional(),
  defaultCurrency: z
    .string()
    .max(3)
    .regex(/^[A-Za-z]{3}$/)
    .transform((c) => c.toUpperCase())
    .nullable()
    .optional(),
  encoding: z.string().max(40).nullable().optional(),
  separator: z.enum([',', ';', '\t', '|']).nullable().optional()
})

/** Settings as a call gives them: any of them, each checked by the one settings rule. */
export const settingsSchema = reconSettingsSchema.partial()

const day = z
  .string()
  .max(10)
  .regex(/^\d{4}-\d{2}-\d{2}$/)
/** Names a statement held in the host between preview and import. */
const token = z
  .string()
  .max(64)
  .regex(/^[0-9a-f-]{36}$/)
const ids = z.array(z.string().min(1).max(200)).max(1000)

/** Largest statement dropped on the window: 192 MB (as base64, a string V8 holds comfortably); bigger ones are opened from the dialog. */
export const MAX_DROPPED_BYTES = 192 * 1024 * 1024
const MAX_DROPPED_BASE64 = Math.ceil(MAX_DROPPED_BYTES / 3) * 4

/** What the review filters items by (see ItemFilter). */
const itemFilter = {
  outcome: z.enum(OUTCOMES).optional(),
  currency: z
    .string()
    .max(3)
    .regex(/^[A-Za-z]{3}$/)
    .optional(),
  from: day.optional(),
  to: day.optional(),
  minAmount: z.string().trim().max(30).optional(),
  maxAmount: z.string().trim().max(30).optional(),
  text: z.string().max(200).optional()
}
const minScore = z.number().min(0).max(20)

/** What reading a statement shows before anything is stored: how it was read, its first rows, every problem, open questions. */
export interface StatementPreview {
  /** Names the file held in the host for the next call (import, or a new mapping); expires after a while. */
  token: string
  name: string
  sha256: string
  encoding: string | null
  separator: string | null
  sheet: string | null
  header: string[]
  headerLine: number | null
  mapping: StatementMapping
  numberForm: string | null
  dateForm: string | null
  rowCount: number
  rows: {
    line: number
    date: string
    amountMinor: number
    currency: string
    reference: string | null
    description: string | null
    counterparty: string | null
  }[]
  problems: ParseProblem[]
  problemCount: number
  skipped: { line: number; reason: string }[]
  questions: ImportQuestion[]
  /** What the statement says of itself, checked: balances, breaks, lines not read (null while questions are open). */
  proof: StatementProof | null
  /** What the file is, known by its content (csv, xlsx, xls, pdf, mt940, camt, ofx, qif). */
  format: string
  /** A PDF's pages as the file-wide line each starts on: lineWhere names a line "page 3, line 12". Null for other formats. */
  pageStarts: number[] | null
  /** Which statement of the file is shown, when it holds several. */
  label: string | null
  /** Every statement of the file (one per sheet or account), each imported as its own statement. */
  statements: {
    label: string | null
    account: string | null
    rows: number
    problems: number
    notRead: LineNotRead[]
    proof: StatementProof | null
  }[]
  presetApplied: string | null
  /** Set when this exact file (same SHA-256) was imported before. */
  sameFile: ImportedFileInfo | null
  /** How many rows were imported before in other files. */
  sameRows: number
}

export interface AuditVerification {
  ok: boolean
  sessions: number
  events: number
  problems: { sessionId: string; seq: number | null; message: string }[]
}

/** The reports a session is written as: Excel-safe CSVs, one workbook, and plain CSVs (for accounting software, not Excel). */
/** How the reports people read write days and times: a BCP 47 tag (en-NG) or iso; one the host does not know is ISO. */
const locale = z
  .string()
  .max(40)
  .regex(/^(iso|[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3})$/)

export const REPORT_FORMATS = ['items-csv', 'summary-csv', 'xlsx', 'pdf', 'items-plain-csv', 'summary-plain-csv'] as const
export type ReportFormat = (typeof REPORT_FORMATS)[number]

export const reconCalls = {
  /** Asks main for a statement file (CSV or XLSX), reads it and previews it; nothing is stored yet. */
  'recon:open': call<StatementPreview | null>()(z.strictObject({ mapping: mappingSchema.optional() })),
  /**
   * A statement dropped on the window: its name and bytes (base64) come from the renderer, which the
   * user's drop gave them; previewed like a chosen file. Larger files go through the open dialog.
   */
  'recon:openDropped': call<StatementPreview>()(
    z.strictObject({
      name: z.string().trim().min(1).max(255),
      base64: z.string().max(MAX_DROPPED_BASE64),
      mapping: mappingSchema.optional()
    })
  ),
  /** The built-in Sandbox's sample bank statement for its own payments, previewed like a chosen file (see `ledgerline sandbox statement`). */
  /** The Sandbox's sample statement, in the format asked for (CSV when none is). */
  'recon:sample': call<StatementPreview>()(z.strictObject({ format: z.enum(SAMPLE_FORMATS).optional() })),
  /**
   * Opens a password-protected PDF held since `recon:open` (which refused with pdf_password_required
   * and the token in its details). The password stays in the host's memory with the file, for its
   * import, and goes when the file does; it is never stored, logged or sent back.
   */
  'recon:unlock': call<StatementPreview>()(
    z.strictObject({ token, password: z.string().min(1).max(1024), mapping: mappingSchema.optional() })
  ),
  /** Reads the same file again with another mapping or answers to its questions. */
  'recon:preview': call<StatementPreview>()(z.strictObject({ token, mapping: mappingSchema })),
  /** Stores the previewed file as an import job (its rows are then usable in sessions). */
  'recon:import': call<JobInfo>()(
    z.strictObject({
      token,
      mapping: mappingSchema.optional(),
      ifSameFile: z.enum(['use-existing', 'import-again']).optional(),
      ifSameRows: z.enum(['keep', 'skip']).optional(),
      /** Saves the mapping under this source name, reapplied to files with the same headers. */
      saveAs: z.string().trim().min(1).max(100).optional()
    })
  ),
  'recon:files': call<ImportedFileInfo[]>()(noArgs),
  /** The first and last day an imported file's rows are dated. */
  'recon:fileDays': call<{ from: string; to: string } | null>()(z.strictObject({ fileId: id })),
  'recon:sessions': call<SessionInfo[]>()(noArgs),
  'recon:session': call<SessionInfo>()(z.strictObject({ id })),
  'recon:create': call<SessionInfo>()(
    z.strictObject({
      name: z.string().trim().min(1).max(200),
      source: z.enum(RECON_SOURCES),
      bulkFileIds: ids.optional(),
      references: ids.optional(),
      from: day,
      to: day,
      settings: settingsSchema.optional(),
      fileIds: ids,
      /** The account the session is of, for statements that state none. */
      account: z.string().trim().max(100).optional()
    })
  ),
  'recon:addFiles': call<SessionInfo>()(z.strictObject({ sessionId: id, fileIds: ids.min(1) })),
  'recon:settings': call<SessionInfo>()(z.strictObject({ sessionId: id, settings: settingsSchema })),
  /** Runs the matching as a cancellable job with progress; the result replaces the session's last one. */
  'recon:run': call<JobInfo>()(z.strictObject({ sessionId: id })),
  'recon:items': call<{ total: number; items: ReconItem[] }>()(
    z.strictObject({
      sessionId: id,
      ...itemFilter,
      offset: z.number().int().min(0).max(100_000_000).optional(),
      limit: z.number().int().min(1).max(1000).optional()
    })
  ),
  /** How many undecided suggestions the filter shows scoring at least minScore, and their totals: said before accepting them all. */
  'recon:acceptAllPreview': call<{ count: number; totals: { currency: string; fileMinor: number; providerMinor: number }[] }>()(
    z.strictObject({ sessionId: id, ...itemFilter, minScore })
  ),
  /** Accepts them, each as its own decision and audit event. */
  'recon:acceptAll': call<{ accepted: number; session: SessionInfo }>()(z.strictObject({ sessionId: id, ...itemFilter, minScore })),
  /**
   * One decision, kept as an audit event. A note, reason, resolve, accept or adjustment is applied in
   * place (the changed item comes back); anything else runs the session again (item: null).
   */
  'recon:decide': call<{
    session: SessionInfo
    item: ReconItem | null
    inPlace: boolean
    /** A shared session: how many decisions wait on this computer to be sent (0: sent and applied). */
    waiting?: number
  }>()(z.strictObject({ sessionId: id, decision: decisionSchema })),
  /** Asks, in a native dialog from main with the session's summary, whether to close; a closed session is read-only. */
  /** Asks, then closes as a job (binding the evidence pack's files takes a while at scale); null when it was closed already. */
  'recon:close': call<JobInfo | null>()(z.strictObject({ sessionId: id, locale: locale.optional() })),
  'recon:reopen': call<SessionInfo>()(z.strictObject({ sessionId: id, reason: z.string().trim().min(1).max(500) })),
  'recon:events': call<(AuditEntry & { hash: string })[]>()(z.strictObject({ sessionId: id })),
  'recon:summary': call<ReconSummary>()(z.strictObject({ sessionId: id })),
  /** Asks where to save, then writes the reconciled items CSV, the summary CSV or the XLSX workbook (a shared session's sign-off with it: a sheet, or a CSV beside the items). */
  'recon:export': call<{ file: string | null; signOffFile?: string | null }>()(
    z.strictObject({ sessionId: id, format: z.enum(REPORT_FORMATS), locale: locale.optional() })
  ),
  /** Asks where to save, then writes a closed session's evidence pack as a job (its result: the file and the audit trail's last hash, to keep with the sign-off); null when no file was chosen. */
  'recon:evidence': call<JobInfo | null>()(z.strictObject({ sessionId: id })),
  'audit:verify': call<AuditVerification>()(noArgs)
} as const
