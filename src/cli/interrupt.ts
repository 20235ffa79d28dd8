// Ctrl+C (or SIGTERM) during the CLI's long work: the first stops the work at its next step, which takes back what that step had begun, and says what is kept; a second stops the process at once.
import { appendFileSync } from 'node:fs'

/** Exit code of a command stopped by Ctrl+C (128 + SIGINT), as a shell gives it. */
export const CANCELLED_EXIT = 130

/** Listens for Ctrl+C while a command works; its signal is handed to each long step, which stops at its next pause. */
export class Interrupt {
  private readonly controller = new AbortController()
  readonly signal: AbortSignal = this.controller.signal

  constructor(private readonly command: string) {
    process.on('SIGINT', this.heard)
    process.on('SIGTERM', this.heard)
  }

  /** The first signal asks the work to stop at its next step; a second stops at once (SQLite rolls back what was not committed when the cache is next opened). */
  private readonly heard = (): void => {
    if (this.signal.aborted) {
      appendFileSync(
        2,
        `ledgerline: ${this.command} stopped at once; what was not committed is rolled back when the cache is next opened\n`
      )
      process.exit(CANCELLED_EXIT)
    }
    appendFileSync(2, `ledgerline: ${this.command}: stopping at the next step (Ctrl+C again stops at once)\n`)
    this.controller.abort(new DOMException(`The ${this.command} was cancelled.`, 'AbortError'))
  }

  /** Whether `error` is the work stopping because it was cancelled. */
  stoppedBy(error: unknown): boolean {
    return this.signal.aborted && (error === this.signal.reason || (error instanceof Error && error.name === 'AbortError'))
  }

  /** Says the command was cancelled and what it keeps; the exit code to return. */
  cancelled(kept: string): number {
    appendFileSync(2, `ledgerline: ${this.command} cancelled; ${kept}\n`)
    return CANCELLED_EXIT
  }

  /** The command is done: Ctrl+C is the shell's again. */
  end(): void {
    process.off('SIGINT', this.heard)
    process.off('SIGTERM', this.heard)
  }
}
