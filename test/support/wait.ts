// The one way a test waits for something another process does: it asks again until the answer comes, never sleeps a fixed time and
// never bounds how long the work may take; only a hung process is cut off, after a limit far above any loaded machine's time.
import { setTimeout as pause } from 'node:timers/promises'

/** How long `until` asks before it takes the other side for hung: a guard against a hang, not a bound on speed. */
export const HANG_LIMIT_MS = 240_000

/**
 * Asks `probe` every `everyMs` until it answers something other than undefined, and returns that. Past `HANG_LIMIT_MS`
 * it fails, saying what it waited for and what `probe` last said (`last`).
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  options: { everyMs?: number; last?: () => string } = {}
): Promise<T> {
  for (const end = Date.now() + HANG_LIMIT_MS; ;) {
    const answer = await probe()
    if (answer !== undefined) return answer
    if (Date.now() > end) throw new Error(`${what}: no answer in ${HANG_LIMIT_MS / 1000} s${options.last ? ` (${options.last()})` : ''}`)
    await pause(options.everyMs ?? 50)
  }
}
