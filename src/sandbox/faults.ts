// Fault injection for the Sandbox: queued or random failures, so retries and resilience can be tested for real.
import { json, type HttpReply } from './http'
import { stream } from './random'

export const FAULT_KINDS = [
  'rate-limit',
  'server-error',
  'bad-gateway',
  'unavailable',
  'drop',
  'cut-body',
  'truncated-json',
  'non-json',
  'slow'
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export interface FaultSettings {
  /** Added to every API response. */
  latencyMs: number
  /** Extra delay of a 'slow' fault. */
  slowMs: number
  /** Chance per request of each fault kind (0..1), drawn from a seeded stream. */
  rates: Partial<Record<FaultKind, number>>
}

export function isFaultKind(value: unknown): value is FaultKind {
  return typeof value === 'string' && (FAULT_KINDS as readonly string[]).includes(value)
}

export class FaultControl {
  private settings: FaultSettings = { latencyMs: 0, slowMs: 2000, rates: {} }
  private readonly queue: FaultKind[] = []
  private rand: () => number
  /** Faults injected so far, by kind. */
  readonly injected: Record<string, number> = {}
  /** Requests still answered before the server holds the rest (see holdAfter); null: nothing is held. */
  private answeredBeforeHold: number | null = null
  private readonly held: (() => void)[] = []

  constructor(seed: number) {
    this.rand = stream(seed, 0xfa017)
  }

  /** The next `count` API requests fail with this fault, in order, before any random ones. */
  queueFault(kind: FaultKind, count = 1): void {
    for (let i = 0; i < count; i++) this.queue.push(kind)
  }

  /**
   * Answers the next `count` API requests, then holds every later one unanswered until release(): a server that stops
   * answering in the middle of a walk, so a test can stop a client at a known point of its work, not at a moment in time.
   */
  holdAfter(count: number): void {
    this.answeredBeforeHold = count
  }

  /** Answers requests again; those it held get their connection closed, unanswered (their clients gave up on them). */
  release(): void {
    this.answeredBeforeHold = null
    for (const drop of this.held.splice(0)) drop()
  }

  /** Requests waiting in holdAfter's hold. */
  get heldRequests(): number {
    return this.held.length
  }

  /** Null when the next request may be answered now; else a promise that resolves when release() drops it. */
  admit(): Promise<void> | null {
    if (this.answeredBeforeHold === null) return null
    if (this.answeredBeforeHold > 0) {
      this.answeredBeforeHold--
      return null
    }
    return new Promise((resolve) => this.held.push(resolve))
  }

  set(settings: Partial<FaultSettings>): void {
    this.settings = { ...this.settings, ...settings, rates: { ...this.settings.rates, ...(settings.rates ?? {}) } }
  }

  reset(seed?: number): void {
    this.settings = { latencyMs: 0, slowMs: 2000, rates: {} }
    this.queue.length = 0
    this.release()
    for (const kind of Object.keys(this.injected)) delete this.injected[kind]
    if (seed !== undefined) this.rand = stream(seed, 0xfa017)
  }

  get latencyMs(): number {
    return this.settings.latencyMs
  }

  get slowMs(): number {
    return this.settings.slowMs
  }

  /** Decides the fault (if any) for the next request. */
  next(): FaultKind | null {
    const queued = this.queue.shift()
    const fault = queued ?? this.drawRandom()
    if (fault) this.injected[fault] = (this.injected[fault] ?? 0) + 1
    return fault
  }

  private drawRandom(): FaultKind | null {
    for (const kind of FAULT_KINDS) {
      const rate = this.settings.rates[kind] ?? 0
      if (rate > 0 && this.rand() < rate) return kind
    }
    return null
  }

  describe(): FaultSettings & { queued: FaultKind[] } {
    return { ...this.settings, queued: [...this.queue] }
  }
}

/** The answer a fault gives instead of the endpoint's, for the faults that answer at all in place of it (null: the others). */
export function faultReply(fault: FaultKind): HttpReply | null {
  switch (fault) {
    case 'rate-limit':
      return json(429, { error: 'Too Many Requests', message: 'rate_limit_exceeded', status: 429 }, { 'Retry-After': '1' })
    case 'server-error':
      return json(500, { error: 'Internal Server Error', message: 'server_error', status: 500 })
    case 'unavailable':
      return json(503, { error: 'Service Unavailable', message: 'server_error', status: 503 }, { 'Retry-After': '1' })
    default:
      return null
  }
}
