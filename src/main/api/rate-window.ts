// Sliding-window request counting: the client uses it to pace itself, the Sandbox to enforce the same limits.

export interface RateWindow {
  /** Most requests allowed in any window of `windowMs`. */
  limit: number
  windowMs: number
}

export class SlidingWindow {
  private readonly windows: readonly RateWindow[]
  private readonly keep: number
  /** Send times of the most recent requests, oldest first. */
  private readonly stamps: number[] = []

  constructor(windows: readonly RateWindow[]) {
    if (windows.length === 0 || windows.some((w) => !(w.limit > 0) || !(w.windowMs > 0)))
      throw new Error('Rate windows need a positive limit and length')
    this.windows = windows
    this.keep = Math.max(...windows.map((w) => w.limit))
  }

  /** Milliseconds until one more request fits every window (0: now). */
  delayAt(now: number): number {
    let wait = 0
    for (const window of this.windows) {
      if (this.stamps.length < window.limit) continue
      const oldestInWindow = this.stamps[this.stamps.length - window.limit] as number
      wait = Math.max(wait, oldestInWindow + window.windowMs - now)
    }
    return Math.max(0, wait)
  }

  record(now: number): void {
    this.stamps.push(now)
    if (this.stamps.length > this.keep) this.stamps.splice(0, this.stamps.length - this.keep)
  }

  /** Requests still allowed in the given window right now. */
  remaining(now: number, window: RateWindow): number {
    let used = 0
    for (let i = this.stamps.length - 1; i >= 0 && (this.stamps[i] as number) > now - window.windowMs; i--) used++
    return Math.max(0, window.limit - used)
  }

  /** When the oldest request still counted in the window stops counting (epoch ms), or now if none is. */
  resetAt(now: number, window: RateWindow): number {
    const inWindow = this.stamps.filter((t) => t > now - window.windowMs)
    return inWindow.length === 0 ? now : (inWindow[0] as number) + window.windowMs
  }
}
