// The job domain of the IPC contract: long work (sync, export, profile removal, statement import, matching, closing, the evidence pack, the journal) as jobs with ids.
import { z } from 'zod'
import { call, callErrorCode, id, noArgs, text } from './define'
import { OUTCOMES } from '../reconcile'
import { syncSummarySchema } from './sync'

export const JOB_KINDS = [
  'sync',
  'export',
  'profile-remove',
  'recon-import',
  'recon-run',
  'recon-close',
  'recon-evidence',
  'journal-export'
] as const
export type JobKind = (typeof JOB_KINDS)[number]
export const JOB_STATES = ['running', 'succeeded', 'failed', 'cancelled'] as const

export const jobProgressSchema = z.strictObject({
  /** What the job is doing now, e.g. "full", "new", "recheck", "writing". */
  phase: text(200),
  /** The part of the job this is about, e.g. a sync resource; null when the job has one part. */
  step: text(80).nullable(),
  done: z.number().int().min(0),
  total: z.number().int().min(0).nullable(),
  /** Units per second so far. */
  rate: z.number().min(0),
  etaSeconds: z.number().min(0).nullable()
})
export type JobProgress = z.infer<typeof jobProgressSchema>

export const jobResultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('sync'), summary: syncSummarySchema }),
  z.strictObject({ kind: z.literal('export'), file: text(4096), rows: z.number().int().min(0) }),
  z.strictObject({ kind: z.literal('profile-remove'), removed: text(200) }),
  z.strictObject({
    kind: z.literal('recon-import'),
    /** imported, same-file (the earlier import is used) or same-rows (asked: keep or skip them). */
    status: z.enum(['imported', 'same-file', 'same-rows', 'questions']),
    fileId: text(80).nullable(),
    /** Every statement stored (a file of several accounts or sheets is one statement each); the first is fileId. */
    fileIds: z.array(text(80)).max(10_000),
    rows: z.number().int().min(0),
    problems: z.number().int().min(0),
    sameRows: z.number().int().min(0)
  }),
  z.strictObject({
    kind: z.literal('recon-run'),
    sessionId: text(80),
    items: z.number().int().min(0),
    counts: z.record(z.enum(OUTCOMES), z.number().int().min(0))
  }),
  z.strictObject({ kind: z.literal('recon-close'), sessionId: text(80) }),
  z.strictObject({
    kind: z.literal('recon-evidence'),
    file: text(4096),
    /** The audit trail's last hash, to keep with the sign-off. */
    chainHead: text(64),
    files: z.number().int().min(0)
  }),
  z.strictObject({ kind: z.literal('journal-export'), file: text(4096), entries: z.number().int().min(0) })
])
export type JobResult = z.infer<typeof jobResultSchema>

export const jobInfoSchema = z.strictObject({
  id: text(80),
  kind: z.enum(JOB_KINDS),
  /** The profile the job captured when it started; switching profiles never redirects it. */
  profileId: text(200),
  profileName: text(200),
  title: text(300),
  state: z.enum(JOB_STATES),
  startedAt: text(40),
  finishedAt: text(40).nullable(),
  progress: jobProgressSchema.nullable(),
  result: jobResultSchema.nullable(),
  error: z.strictObject({ code: callErrorCode, message: text(2000) }).nullable()
})
export type JobInfo = z.infer<typeof jobInfoSchema>

export const jobCalls = {
  /** Running jobs and the ones finished since the host started, newest first: a reloaded window picks them up here. */
  'job:list': call<JobInfo[]>()(noArgs),
  'job:cancel': call<{ cancelled: boolean }>()(z.strictObject({ id }))
} as const

export const jobEvents = {
  'job:progress': jobInfoSchema,
  'job:finished': jobInfoSchema
} as const
