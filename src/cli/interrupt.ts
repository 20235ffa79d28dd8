// Ctrl+C (or SIGTERM) during the CLI's long work: the first stops the work at its next step, which takes back what that step had begun, and says what is kept; a second stops the process at once.
import { appendFileSync } from 'node:fs'

/** Exit codes of a command stopped by a signal, as a shell gives them (128 + the signal's number). */
const STOPPED_EXIT = { SIGINT: 130, SIGTERM: 143 } as const
type StopSignal = keyof typeof STOPPED_EXIT
const IN_WORDS: Record<StopSignal, string> = { SIGINT: 'Ctrl+C', SIGTERM: 'stop signal (SIGTERM)' }

/** Listens for Ctrl+C while a command works; its signal is handed to each long step, which stops at its next pause. */
export class Interrupt {
  private readonly controller = new AbortController()
  readonly signal: AbortSignal = this.controller.signal
  private heardFirst: StopSignal | null = null
  private said = false

  constructor(private readonly command: string) {
    process.on('SIGINT', this.heard)
    process.on('SIGTERM', this.heard)
  }

  /**
   * The first signal asks the work to stop at its next step. A second stops at once: SQLite rolls back
   * what was not committed when the cache is next opened (which checks it in full when this process
   * could not say it was done with it, inside the open transaction).
   */
  private readonly heard = (signal: StopSignal): void => {
    if (this.heardFirst !== null) {
      appendFileSync(2, `ledgerline: ${this.command} stopped at once; what it had not finished is not kept\n`)
      process.exit(STOPPED_EXIT[signal])
    }
    this.heardFirst = signal
    appendFileSync(
      2,
      `ledgerline: ${this.command}: stopping at the next step (${signal === 'SIGINT' ? 'Ctrl+C' : 'the signal'} again stops at once)\n`
    )
    this.controller.abort(new DOMException(`The ${this.command} was cancelled.`, 'AbortError'))
  }

  /** Whether `error` is the work stopping because it was cancelled. */
  stoppedBy(error: unknown): boolean {
    return this.signal.aborted && (error === this.signal.reason || (error instanceof Error && error.name === 'AbortError'))
  }

  /** Says the command was cancelled and what it keeps; the exit code to return. */
  cancelled(kept: string): number {
    this.said = true
    appendFileSync(2, `ledgerline: ${this.command} cancelled; ${kept}\n`)
    return STOPPED_EXIT[this.heardFirst ?? 'SIGINT']
  }

  /**
   * The command is done: Ctrl+C is the shell's again. A signal that came during its last step (one
   * that finishes before a signal is heard, such as storing an import's lines) is heard first, and
   * said to have changed nothing.
   */
  async end(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    process.off('SIGINT', this.heard)
    process.off('SIGTERM', this.heard)
    if (this.heardFirst !== null && !this.said)
      appendFileSync(2, `ledgerline: ${this.command}: the ${IN_WORDS[this.heardFirst]} came after its last step; what it did is kept\n`)
  }
}
