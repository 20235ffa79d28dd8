// The Sandbox's rate limits per mode (the provider's documented ones, custom ones, or none) and the headers each answer carries.
import { RATE_LIMITS } from '../shared/api/assumptions'
import { SlidingWindow, type RateWindow } from '../main/api/rate-window'
import type { SandboxMode } from './data'

/** The provider's documented limits (true or undefined), custom ones per mode, or none (false). */
export type RateLimitSetting = boolean | Partial<Record<SandboxMode, { perMinute: number; perSecond: number }>>

export class SandboxRateLimits {
  private limiters: Partial<Record<SandboxMode, { window: SlidingWindow; minute: RateWindow; second: RateWindow }>> = {}

  constructor(limits: RateLimitSetting | undefined) {
    this.set(limits)
  }

  /** Replaces the limits, with fresh windows: what was sent before no longer counts. */
  set(limits: RateLimitSetting | undefined): void {
    this.limiters = {}
    if (limits === false) return
    for (const mode of ['test', 'live'] as const) {
      const chosen = (limits === true || limits === undefined ? undefined : limits[mode]) ?? RATE_LIMITS[mode]
      const minute = { limit: chosen.perMinute, windowMs: 60_000 }
      const second = { limit: chosen.perSecond, windowMs: 1_000 }
      this.limiters[mode] = { window: new SlidingWindow([minute, second]), minute, second }
    }
  }

  get enabled(): boolean {
    return Object.keys(this.limiters).length > 0
  }

  /** Counts a request in its mode's windows when it fits them: the rate-limit headers, and how long to wait when it does not (0: it fits). */
  check(mode: SandboxMode): { headers: Record<string, string>; retryAfterMs: number } {
    const limiter = this.limiters[mode]
    if (!limiter) return { headers: {}, retryAfterMs: 0 }
    const now = Date.now()
    const delay = limiter.window.delayAt(now)
    if (delay === 0) limiter.window.record(now)
    const headers = {
      'X-RateLimit-Limit': String(limiter.minute.limit),
      'X-RateLimit-Remaining': String(limiter.window.remaining(now, limiter.minute)),
      'X-RateLimit-Reset': String(Math.ceil(limiter.window.resetAt(now, limiter.minute) / 1000))
    }
    return { headers, retryAfterMs: delay }
  }
}
