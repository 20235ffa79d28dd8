// Signs of life on stderr for long CLI work (reconcile, import, close --evidence, journal), as sync gives them: nothing for work done within a second, then each phase as it starts and how far it has come, at most once a second.
import { appendFileSync } from 'node:fs'

/** Phases and counts of one command's work, said on stderr once the work has run a second (LEDGERLINE_PROGRESS=always: from the start; never: not at all). */
export class StderrProgress {
  private readonly started: number
  private last = 0
  private current = ''
  /** Says the phase still running once the work has run a second (it fires between the awaits of asynchronous work). */
  private readonly timer: NodeJS.Timeout | null
  private readonly quietFor: number
  private readonly now: () => number
  private readonly write: (line: string) => void

  constructor(
    private readonly command: string,
    options: { quietFor?: number; now?: () => number; write?: (line: string) => void } = {}
  ) {
    const asked = process.env['LEDGERLINE_PROGRESS']
    this.quietFor = options.quietFor ?? (asked === 'always' ? 0 : asked === 'never' ? Infinity : 1000)
    this.now = options.now ?? Date.now
    // Written at once, even in the middle of synchronous work (the matching of a whole statement runs in one go).
    this.write = options.write ?? ((line) => appendFileSync(2, line))
    this.started = this.now()
    this.timer = Number.isFinite(this.quietFor)
      ? setTimeout(() => {
          if (this.last === 0 && this.current !== '') this.say(this.current, true)
        }, this.quietFor)
      : null
    this.timer?.unref()
  }

  /** The work is done: nothing more is said. */
  end(): void {
    if (this.timer) clearTimeout(this.timer)
    this.current = ''
  }

  /** A new phase of the work ("reading nov.csv (12.3 MB)"): said when the work has run long enough to need it. */
  phase(text: string): void {
    this.current = text
    this.say(text, true)
  }

  /** How far the phase has come; said at most once a second. */
  tick(step: string, done: number, total: number): void {
    if (this.current === '') return
    this.say(`${this.current}: ${step} ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`, false)
  }

  private say(text: string, phase: boolean): void {
    ctrlCForTests(`${this.command}: ${text}`)
    const now = this.now()
    if (now - this.started < this.quietFor) return
    // At most one count a second (asked for always, as tests do: every count).
    if (!phase && this.quietFor > 0 && now - this.last < 1000) return
    this.last = now
    this.write(`${this.command}: ${text}\n`)
  }
}

/** A file's size in words: "820 bytes", "12.3 MB". */
export function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/**
 * For tests of Ctrl+C: LEDGERLINE_TEST_CTRL_C_AT=TEXT has the command send itself SIGINT, once, as the
 * first progress line holding TEXT is due (said or not), so a test stops it at a phase it names
 * whatever the machine's speed. On Linux a signal a process sends itself reaches the sending thread
 * before kill returns, so the work's next pause hears it.
 */
let ctrlCAt = process.env['LEDGERLINE_TEST_CTRL_C_AT'] || null
function ctrlCForTests(line: string): void {
  if (ctrlCAt === null || !line.includes(ctrlCAt)) return
  ctrlCAt = null
  process.kill(process.pid, 'SIGINT')
}
