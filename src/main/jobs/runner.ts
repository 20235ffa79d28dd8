// The one job runner in the host: long work gets an id, progress and finished events, cancel by id, and one job of a kind per profile.
import { randomUUID } from 'node:crypto'
import { providerCode } from '../../shared/error-codes'
import type { JobInfo, JobKind, JobProgress, JobResult } from '../../shared/ipc/contract'
import { clip } from '../../shared/text'
import { AppError } from '../errors'
import type { EventEmitter } from '../ipc/events'
import type { Logger } from '../log'
import { redactSecrets } from '../redact'

/** What a job's work sees: its own cancel signal and a way to report progress. */
export interface JobControl {
  readonly id: string
  readonly signal: AbortSignal
  /** Reports progress; sent to the window at most every PROGRESS_INTERVAL_MS (the latest when the interval is up), except when `force` is set. */
  progress(
    progress: Omit<JobProgress, 'rate' | 'etaSeconds' | 'step'> & Partial<Pick<JobProgress, 'rate' | 'etaSeconds' | 'step'>>,
    force?: boolean
  ): void
}

export interface JobSpec<R extends JobResult> {
  kind: JobKind
  /** Captured when the job starts: the job always works on this profile. */
  profile: { id: string; name: string }
  title: string
  run(job: JobControl): Promise<R>
  /** A job that ends with this result counts as cancelled (e.g. a sync that stopped early but saved its pages). */
  wasCancelled?(result: R): boolean
}

export const PROGRESS_INTERVAL_MS = 200
/** Finished jobs kept for job:list, so a reloaded window can still show how the last ones ended. */
const FINISHED_KEPT = 20

interface Running {
  info: JobInfo
  controller: AbortController
  done: Promise<void>
  lastSent: number
  /** The latest progress held back by the interval, sent when it is up. */
  trailing: NodeJS.Timeout | null
}

export class JobRunner {
  private readonly running = new Map<string, Running>()
  private readonly finished: JobInfo[] = []

  constructor(
    private readonly events: EventEmitter,
    private readonly log?: Logger,
    private readonly now: () => number = Date.now
  ) {}

  /** The running job of this kind for this profile, if any. */
  runningFor(profileId: string, kind?: JobKind): JobInfo | null {
    for (const job of this.running.values())
      if (job.info.profileId === profileId && (kind === undefined || job.info.kind === kind)) return { ...job.info }
    return null
  }

  /** Starts a job and returns at once; refuses a second job of the same kind for the same profile. */
  start<R extends JobResult>(spec: JobSpec<R>): JobInfo {
    const existing = this.runningFor(spec.profile.id, spec.kind)
    if (existing) {
      throw new AppError('job_running', `${existing.title} is already running for "${spec.profile.name}"; wait for it or cancel it.`, {
        jobId: existing.id
      })
    }
    const controller = new AbortController()
    const info: JobInfo = {
      id: randomUUID(),
      kind: spec.kind,
      profileId: spec.profile.id,
      profileName: clip(spec.profile.name, 200),
      title: clip(spec.title, 300),
      state: 'running',
      startedAt: new Date(this.now()).toISOString(),
      finishedAt: null,
      progress: null,
      result: null,
      error: null
    }
    const started = this.now()
    const entry: Running = { info, controller, done: Promise.resolve(), lastSent: 0, trailing: null }
    const send = (): void => {
      if (entry.trailing) clearTimeout(entry.trailing)
      entry.trailing = null
      entry.lastSent = this.now()
      this.events.emit('job:progress', { ...info })
    }
    const control: JobControl = {
      id: info.id,
      signal: controller.signal,
      progress: (p, force = false) => {
        const t = this.now()
        const seconds = Math.max((t - started) / 1000, 0.001)
        const rate = p.rate ?? p.done / seconds
        const left = p.total === null ? null : Math.max(0, p.total - p.done)
        info.progress = {
          phase: clip(p.phase, 200),
          step: p.step === undefined || p.step === null ? null : clip(p.step, 80),
          done: p.done,
          total: p.total,
          rate,
          etaSeconds: p.etaSeconds !== undefined ? p.etaSeconds : left === null || rate === 0 ? null : left / rate
        }
        const wait = PROGRESS_INTERVAL_MS - (t - entry.lastSent)
        if (force || wait <= 0) return send()
        // Held back, not dropped: a job that then waits (on a slow server, a held request) still shows where it is.
        entry.trailing ??= setTimeout(() => {
          entry.trailing = null
          if (info.state === 'running') send()
        }, wait)
      }
    }
    this.running.set(info.id, entry)
    this.log?.info(`job ${info.kind} started for "${spec.profile.name}" (${info.id})`)
    this.events.emit('job:progress', { ...info })
    entry.done = Promise.resolve()
      .then(() => {
        // Cancelled before it began: it ends as cancelled without starting.
        controller.signal.throwIfAborted()
        return spec.run(control)
      })
      .then(
        (result) => {
          info.result = result
          info.state = controller.signal.aborted || spec.wasCancelled?.(result) ? 'cancelled' : 'succeeded'
        },
        (error: unknown) => {
          if (controller.signal.aborted) {
            info.state = 'cancelled'
            info.error = { code: 'cancelled', message: 'Cancelled; what was done so far is kept.' }
            return
          }
          info.state = 'failed'
          if (error instanceof AppError)
            info.error = {
              // A provider's own code over 80 characters is cut, as said.
              code: error.code.length <= 80 ? error.code : providerCode(clip(error.code, 80)),
              message: clip(redactSecrets(error.message))
            }
          else {
            this.log?.error(
              `job ${info.kind} ${info.id} failed: ${error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error)}`
            )
            info.error = { code: 'internal', message: `${info.title} failed unexpectedly; the details were written to the log.` }
          }
        }
      )
      .then(() => {
        if (entry.trailing) clearTimeout(entry.trailing)
        info.finishedAt = new Date(this.now()).toISOString()
        this.running.delete(info.id)
        this.finished.unshift({ ...info })
        this.finished.length = Math.min(this.finished.length, FINISHED_KEPT)
        this.log?.info(`job ${info.kind} ${info.state} for "${spec.profile.name}" (${info.id})${info.error ? `: ${info.error.code}` : ''}`)
        this.events.emit('job:finished', { ...info })
      })
    return { ...info }
  }

  /** Asks a running job to stop; it ends as cancelled, keeping what it saved. */
  cancel(id: string): boolean {
    const job = this.running.get(id)
    if (!job) return false
    job.controller.abort()
    return true
  }

  /** Running jobs, then the recently finished ones, newest first. */
  list(): JobInfo[] {
    const running = [...this.running.values()].map((j) => ({ ...j.info })).reverse()
    return [...running, ...this.finished.map((j) => ({ ...j }))]
  }

  /** Resolves when this job has finished (immediately for an unknown id). */
  async settled(id: string): Promise<JobInfo | null> {
    await this.running.get(id)?.done
    return this.finished.find((j) => j.id === id) ?? null
  }

  /** Cancels everything and waits for it to stop (host shutdown). */
  async stopAll(): Promise<void> {
    const all = [...this.running.values()]
    for (const job of all) job.controller.abort()
    await Promise.allSettled(all.map((j) => j.done))
  }
}
