// Long work a caller may stop between its steps (the CLI's Ctrl+C): a pause yields to the event loop, which is where a signal is heard, and throws once the work is cancelled.
/** Awaited between the steps of long work: lets the event loop run, and throws the signal's reason once it is aborted. */
export type Pause = () => Promise<void>

/** A pause for `signal`: the event loop runs (a Ctrl+C handler among it), then the work stops if the signal was aborted. */
export function pauseFor(signal: AbortSignal): Pause {
  return async () => {
    await new Promise((resolve) => setImmediate(resolve))
    signal.throwIfAborted()
  }
}

/** Runs a generator's steps to its end at once. */
export function finishNow<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** Runs a generator's steps to its end, pausing between them. */
export async function finishPausing<T>(steps: Generator<unknown, T>, pause: Pause): Promise<T> {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await pause()
  }
}
