// Main's side of the service host: forks it, forwards calls and answers its questions, and restarts it when it dies, failing calls in flight with a clear code.
import type { CallErrorCode } from '../../shared/error-codes'
import { fail, type CallResult } from '../../shared/ipc/result'
import type { AskRequest, MainUi } from '../ipc/questions'
import { readFromHost, type HostConfig, type ToHost } from './protocol'

/** A running host process, whatever started it (Electron's utilityProcess, or Node's child_process under tests). */
export interface HostProcess {
  readonly pid: number | undefined
  send(message: ToHost): void
  onMessage(listener: (message: unknown) => void): void
  onExit(listener: (info: { code: number | null; signal: string | null }) => void): void
  kill(): void
}

export type HostLauncher = () => HostProcess

export type HostState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped'

export const HostErrorCode = {
  /** The host died while this call was in flight; it is being restarted. */
  Restarted: 'HOST_RESTARTED',
  /** The host could not be (re)started in time, or gave up after crashing again and again. */
  Unavailable: 'HOST_UNAVAILABLE',
  /** The host answered a call with something that is not a result: the call fails at once rather than waiting forever. */
  BadAnswer: 'HOST_BAD_ANSWER'
} as const

export interface SupervisorOptions {
  launch: HostLauncher
  config: HostConfig
  /** Native dialogs the host asks for. */
  ui: MainUi
  /** An event from the host, for main to check and pass to the window. */
  onEvent: (name: string, payload: unknown) => void
  log?: (level: 'info' | 'error', message: string) => void
  /** How long a call waits for a (re)starting host before it fails. */
  readyTimeoutMs?: number
  /** A host that answers no ping for timeoutMs is taken for hung, killed and restarted. false: no pings. */
  heartbeat?: { intervalMs: number; timeoutMs: number } | false
  /** More crashes than this within windowMs and the supervisor stops restarting. */
  restarts?: { max: number; windowMs: number; delayMs: number }
}

interface Pending {
  name: string
  resolve: (result: CallResult<unknown>) => void
}

interface Waiting {
  name: string
  arg: unknown
  resolve: (result: CallResult<unknown>) => void
  timer: ReturnType<typeof setTimeout>
}

export class HostSupervisor {
  private child: HostProcess | null = null
  private currentState: HostState = 'stopped'
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private waiting: Waiting[] = []
  private crashes: number[] = []
  private failure: { code: CallErrorCode; message: string } | null = null
  private heartbeat: ReturnType<typeof setInterval> | null = null
  private lastPong = 0
  private firstStart: { resolve(): void; reject(error: Error): void } | null = null
  private restartsDone = 0
  /** Jobs the host reported running, so they can be reported failed if the host dies under them. */
  private readonly runningJobs = new Map<string, Record<string, unknown>>()

  constructor(private readonly options: SupervisorOptions) {}

  get state(): HostState {
    return this.currentState
  }

  /** The host's process id (tests kill it to check the restart). */
  get pid(): number | undefined {
    return this.child?.pid
  }

  /** How many times the host was restarted after dying. */
  get restarts(): number {
    return this.restartsDone
  }

  /** Starts the host; resolves once it is ready, rejects when it cannot start (e.g. a cache from a newer version). */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.firstStart = { resolve, reject }
      this.launch('starting')
    })
  }

  /** Sends a call (already checked by the gate) and resolves with its result; never rejects and never hangs on a dead host. */
  call(name: string, arg: unknown): Promise<CallResult<unknown>> {
    return new Promise((resolve) => {
      if (this.currentState === 'ready') return this.send(name, arg, resolve)
      if (this.currentState === 'failed' || this.currentState === 'stopped') return resolve(this.unavailable())
      const waiting: Waiting = {
        name,
        arg,
        resolve,
        timer: setTimeout(() => {
          this.waiting = this.waiting.filter((w) => w !== waiting)
          resolve(
            fail(
              HostErrorCode.Unavailable,
              `The background service did not come back within ${Math.round(this.readyTimeoutMs() / 1000)} s, so ${name} could not run. Restart Ledgerline.`
            )
          )
        }, this.readyTimeoutMs())
      }
      this.waiting.push(waiting)
    })
  }

  /** Asks the host to finish (jobs stop, keeping what they saved) and waits up to `graceMs` before killing it. */
  async stop(graceMs = 5_000): Promise<void> {
    const child = this.child
    this.currentState = 'stopped'
    this.stopHeartbeat()
    this.failAll(fail(HostErrorCode.Unavailable, 'Ledgerline is closing.'))
    if (!child) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill()
        resolve()
      }, graceMs)
      child.onExit(() => {
        clearTimeout(timer)
        resolve()
      })
      try {
        child.send({ type: 'shutdown' })
      } catch {
        child.kill()
      }
    })
    this.child = null
  }

  private readyTimeoutMs(): number {
    return this.options.readyTimeoutMs ?? 30_000
  }

  private unavailable(): CallResult<never> {
    const reason = this.failure ?? {
      code: HostErrorCode.Unavailable,
      message: 'The background service is not running. Restart Ledgerline.'
    }
    return fail(reason.code, reason.message)
  }

  private send(name: string, arg: unknown, resolve: (result: CallResult<unknown>) => void): void {
    const id = this.nextId++
    this.pending.set(id, { name, resolve })
    try {
      this.child?.send({ type: 'call', id, name, arg })
    } catch {
      // The channel closed under us: the exit handler fails this call with HOST_RESTARTED.
    }
  }

  private launch(state: 'starting' | 'restarting'): void {
    this.currentState = state
    let child: HostProcess
    try {
      child = this.options.launch()
    } catch (error) {
      this.giveUp(
        'host_start_failed',
        `The background service could not be started (${error instanceof Error ? error.message : String(error)}).`
      )
      return
    }
    this.child = child
    child.onMessage((raw) => this.onMessage(child, raw))
    child.onExit((info) => this.onExit(child, info))
    child.send({ type: 'init', config: this.options.config })
  }

  private onMessage(child: HostProcess, raw: unknown): void {
    if (child !== this.child) return
    const message = readFromHost(raw)
    if (!message) {
      this.options.log?.('error', 'service host sent a malformed message; ignored')
      return
    }
    switch (message.type) {
      case 'ready':
        return this.onReady()
      case 'fatal':
        this.giveUp(message.code, message.message)
        child.kill()
        return
      case 'result': {
        const pending = this.pending.get(message.id)
        this.pending.delete(message.id)
        pending?.resolve(message.result)
        return
      }
      case 'unreadable-result': {
        const pending = this.pending.get(message.id)
        this.pending.delete(message.id)
        if (!pending) return
        this.options.log?.('error', `service host answered ${pending.name} with a result main cannot read; the call failed`)
        pending.resolve(
          fail(
            HostErrorCode.BadAnswer,
            `The background service answered ${pending.name} in a form Ledgerline cannot read, so nothing was shown. Try again; if it happens again, the log has the details.`
          )
        )
        return
      }
      case 'event':
        this.trackJob(message.name, message.payload)
        return this.options.onEvent(message.name, message.payload)
      case 'ask':
        return void this.answer(child, message.id, message.request)
      case 'pong':
        this.lastPong = Date.now()
        return
    }
  }

  private async answer(child: HostProcess, id: number, request: AskRequest): Promise<void> {
    let value: boolean | string | null
    try {
      if (request.kind === 'confirm') {
        const { kind: _kind, ...confirm } = request
        value = await this.options.ui.confirm(confirm)
      } else if (request.kind === 'saveFile') {
        const { kind: _kind, ...save } = request
        value = await this.options.ui.chooseSaveFile(save)
      } else {
        const { kind: _kind, ...open } = request
        value = await this.options.ui.chooseOpenFile(open)
      }
    } catch (error) {
      this.options.log?.('error', `dialog failed: ${error instanceof Error ? error.message : String(error)}`)
      value = request.kind === 'confirm' ? false : null
    }
    if (child === this.child) child.send({ type: 'answer', id, value })
  }

  private onReady(): void {
    const restarted = this.currentState === 'restarting'
    this.currentState = 'ready'
    this.failure = null
    this.startHeartbeat()
    this.options.log?.('info', `service host ready (pid ${this.child?.pid ?? '?'})`)
    if (restarted) this.options.onEvent('host:status', { state: 'ready', message: 'The background service is running again.' })
    this.firstStart?.resolve()
    this.firstStart = null
    const waiting = this.waiting
    this.waiting = []
    for (const w of waiting) {
      clearTimeout(w.timer)
      this.send(w.name, w.arg, w.resolve)
    }
  }

  private onExit(child: HostProcess, info: { code: number | null; signal: string | null }): void {
    if (child !== this.child) return
    this.child = null
    this.stopHeartbeat()
    if (this.currentState === 'stopped' || this.currentState === 'failed') return
    const how = info.signal ? `signal ${info.signal}` : `exit code ${info.code ?? '?'}`
    this.options.log?.('error', `service host stopped unexpectedly (${how})`)
    for (const [, pending] of this.pending) {
      pending.resolve(
        fail(
          HostErrorCode.Restarted,
          `The background service stopped (${how}) while working on ${pending.name}; it is being restarted. Everything already saved is kept: try again.`
        )
      )
    }
    this.pending.clear()
    this.failRunningJobs(how)
    const now = Date.now()
    const limits = this.options.restarts ?? { max: 5, windowMs: 60_000, delayMs: 500 }
    this.crashes = [...this.crashes.filter((t) => now - t < limits.windowMs), now]
    if (this.firstStart || this.crashes.length > limits.max) {
      this.giveUp(
        HostErrorCode.Unavailable,
        `The background service keeps stopping (${how}); Ledgerline stopped restarting it. The log has the details; restart Ledgerline.`
      )
      return
    }
    const message = `The background service stopped (${how}) and is being restarted. Jobs that were running stopped; what they saved is kept.`
    // The window shows this as a banner until the host is back (host:status ready).
    this.options.onEvent('host:status', { state: 'restarting', message })
    this.currentState = 'restarting'
    const delay = limits.delayMs * 2 ** (this.crashes.length - 1)
    setTimeout(() => {
      if (this.currentState !== 'restarting') return
      this.restartsDone++
      this.launch('restarting')
    }, delay).unref?.()
  }

  private trackJob(name: string, payload: unknown): void {
    const job = payload as { id?: unknown; state?: unknown } | null
    if (typeof job?.id !== 'string') return
    if (name === 'job:progress' && job.state === 'running') this.runningJobs.set(job.id, payload as Record<string, unknown>)
    else if (name === 'job:finished') this.runningJobs.delete(job.id)
  }

  /** The host died under these jobs: they end as failed with a clear code, so nothing waits for them forever. */
  private failRunningJobs(how: string): void {
    const finishedAt = new Date().toISOString()
    for (const job of this.runningJobs.values()) {
      this.options.onEvent('job:finished', {
        ...job,
        state: 'failed',
        finishedAt,
        error: {
          code: HostErrorCode.Restarted,
          message: `The background service stopped (${how}) while this job ran. What it saved is kept; run it again.`
        }
      })
    }
    this.runningJobs.clear()
  }

  private giveUp(code: CallErrorCode, message: string): void {
    this.currentState = 'failed'
    this.failure = { code, message }
    this.stopHeartbeat()
    this.options.log?.('error', `service host unavailable: ${code}: ${message}`)
    this.failAll(fail(code, message))
    this.failRunningJobs('it could not be restarted')
    if (this.firstStart) {
      const error = Object.assign(new Error(message), { code })
      this.firstStart.reject(error)
      this.firstStart = null
    } else this.options.onEvent('host:status', { state: 'failed', message })
  }

  private failAll(result: CallResult<never>): void {
    for (const [, pending] of this.pending) pending.resolve(result)
    this.pending.clear()
    for (const w of this.waiting) {
      clearTimeout(w.timer)
      w.resolve(result)
    }
    this.waiting = []
  }

  private startHeartbeat(): void {
    const beat = this.options.heartbeat ?? { intervalMs: 5_000, timeoutMs: 45_000 }
    if (beat === false) return
    this.stopHeartbeat()
    this.lastPong = Date.now()
    let id = 0
    this.heartbeat = setInterval(() => {
      const child = this.child
      if (!child || this.currentState !== 'ready') return
      if (Date.now() - this.lastPong > beat.timeoutMs) {
        this.options.log?.('error', `service host answered no ping for ${Math.round(beat.timeoutMs / 1000)} s; restarting it`)
        child.kill()
        return
      }
      try {
        child.send({ type: 'ping', id: ++id })
      } catch {
        // The exit handler deals with a closed channel.
      }
    }, beat.intervalMs)
    this.heartbeat.unref?.()
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat)
    this.heartbeat = null
  }
}
