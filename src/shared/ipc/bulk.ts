// The bulk files domain of the IPC contract: open a CSV into a builder, check it, send it to the provider, keep every send, follow it back.
import { z } from 'zod'
import type { CallErrorCode } from '../error-codes'
import { BULK_FILE_LIMITS } from '../api/assumptions'
import { BULK_KINDS, type BulkKind, type BulkProblem } from '../bulk/problems'
import type { BulkReport, CurrencyTotal } from '../bulk/validate'
import type { RowStatus } from '../bulk/write'
import { call, id, noArgs } from './define'

export type Transport = 'json' | 'multipart'

/** The cached bank list per currency (for the picker and the bank-code rule) and the internalReferences of cached plans. */
export interface BulkContextInfo {
  banks: Record<string, { code: string; name: string }[]>
  planReferences: string[]
}

/**
 * A CSV read for a builder: how many data rows it has and a token to fetch them with `bulk:rows`
 * a slice at a time (a hundred thousand rows in one message would hold the window while it
 * arrives), and what is wrong with the file as a whole.
 */
export interface OpenedBulkFile {
  fileName: string
  rowCount: number
  token: string
  /** Problems of the file itself (encoding, separator, header): row problems are worked out again on the builder's rows. */
  fileProblems: BulkProblem[]
}

/** Most rows `bulk:rows` returns at once. */
export const MAX_ROWS_PER_READ = 10_000

/** One file sent to the provider, as the cache keeps it. */
export interface SentFile {
  id: number
  kind: BulkKind
  action: 'validate' | 'upload'
  transport: Transport
  fileName: string
  sha256: string
  rows: number
  totals: CurrencyTotal[]
  sentAt: string
  accepted: boolean
  /** What the provider said of the rows, each on its row and column. */
  problems: BulkProblem[]
  totalRequests: number | null
  /** The `status` the provider answered with, when it sent one (a plan upload's "success"). */
  providerStatus: string | null
  /** Why the send failed (an API error), if it did. */
  error: { code: CallErrorCode; message: string } | null
  bulkFileId: string | null
}

/** A sent transfer file beside what the provider now says of each row. */
export interface SentFileStatus {
  sent: SentFile
  rows: string[][]
  /** Per row: the matching transfer of the bulk file, or null when none is cached (yet). */
  statuses: ((RowStatus & { final: boolean }) | null)[]
  counts: { successful: number; failed: number; pending: number; notFound: number }
  lastSyncedAt: string | null
}

export interface SavedFile {
  file: string
  rows: number
}

const kind = z.enum(BULK_KINDS)
/** The builder's rows as a CSV in the provider's layout (src/shared/bulk/write.ts), at most the file limit. */
const csv = z.string().min(1).max(BULK_FILE_LIMITS.maxBytes)
const fileName = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .regex(/^[^/\\:*?"<>|\0]+$/, 'a file name, without folders')
const sendId = z.number().int().min(1)
/** Largest CSV dropped on a builder, as base64. */
const MAX_DROPPED_BASE64 = Math.ceil(BULK_FILE_LIMITS.maxBytes / 3) * 4

export const bulkCalls = {
  'bulk:context': call<BulkContextInfo>()(noArgs),
  /** Main's open dialog, then the file read into rows; null when the dialog was closed. */
  'bulk:open': call<OpenedBulkFile | null>()(z.strictObject({ kind })),
  /** A CSV dropped on the builder: its name and bytes (base64). */
  'bulk:openDropped': call<OpenedBulkFile>()(
    z.strictObject({ kind, name: z.string().trim().min(1).max(255), base64: z.string().max(MAX_DROPPED_BASE64) })
  ),
  /** Rows `from` … `from + count` of an opened file, as plain CSV text in the spec's column order (no header). */
  'bulk:rows': call<string>()(
    z.strictObject({
      token: z
        .string()
        .max(64)
        .regex(/^[0-9a-f-]{36}$/),
      from: z.number().int().min(0),
      count: z.number().int().min(1).max(MAX_ROWS_PER_READ)
    })
  ),
  /** The host's check of the whole file, with the profile's cached banks and plans (what is checked before anything is sent). */
  'bulk:check': call<BulkReport>()(z.strictObject({ kind, csv })),
  /**
   * Transfers: validated with the API (JSON body or multipart form). Plans: uploaded (the plans are
   * created). A file with errors is refused before anything is sent; a live profile asks in a native dialog.
   */
  'bulk:send': call<SentFile>()(z.strictObject({ kind, csv, fileName, transport: z.enum(['json', 'multipart']).optional() })),
  /** Main's save dialog, then the file in the provider's layout; null when the dialog was closed. */
  'bulk:save': call<(SavedFile & { report: BulkReport }) | null>()(z.strictObject({ kind, csv, fileName })),
  'bulk:history': call<SentFile[]>()(noArgs),
  /**
   * Attaches the bulk file id the provider gave for a sent transfer file and follows it, so sync
   * fetches its transfers. On the built-in Sandbox, `submit` hands the file to the Sandbox as the
   * provider's dashboard would, and follows the id it gives.
   */
  'bulk:follow': call<SentFile>()(
    z.union([z.strictObject({ sendId, bulkFileId: id }), z.strictObject({ sendId, submit: z.literal(true) })])
  ),
  'bulk:status': call<SentFileStatus>()(z.strictObject({ sendId })),
  /** The sent rows with each row's provider status (Excel-safe), or a retry file of only the failed rows (provider layout). */
  'bulk:saveStatus': call<SavedFile | null>()(z.strictObject({ sendId, variant: z.enum(['status', 'retry']) }))
} as const
