// The app's log file: one redacted line per event, appended; a log that cannot be written never stops the app.
import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { redactSecrets } from './redact'

export interface Logger {
  info(message: string): void
  error(message: string): void
}

export const LOG_FILE_NAME = 'ledgerline.log'

export function createFileLogger(file: string, now: () => Date = () => new Date()): Logger {
  let ready = false
  const write = (level: string, message: string): void => {
    try {
      if (!ready) {
        mkdirSync(dirname(file), { recursive: true })
        ready = true
      }
      const oneLine = redactSecrets(message).replace(/\r?\n/g, ' | ')
      appendFileSync(file, `${now().toISOString()} ${level} ${oneLine}\n`)
    } catch {
      // A full disk or a read-only folder must not take the app down with it.
    }
  }
  return { info: (m) => write('INFO', m), error: (m) => write('ERROR', m) }
}

/** One line for a sync summary, for the log. */
export function describeSync(
  profileName: string,
  summary: {
    cancelled: boolean
    durationMs: number
    resources: Record<string, { ok: boolean; written: number; error?: { code: string; message: string } } | undefined>
  }
): string {
  const parts = Object.entries(summary.resources).map(([r, o]) => (o ? `${r}=${o.ok ? 'ok' : `failed(${o.error?.code})`}:${o.written}` : r))
  return `sync "${profileName}" ${summary.cancelled ? 'cancelled' : 'finished'} in ${summary.durationMs} ms: ${parts.join(' ')}`
}
