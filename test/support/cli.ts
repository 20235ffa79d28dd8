// Runs the real ledgerline command in a child process and collects what it printed.
import Database from 'better-sqlite3'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { PROJECT_ROOT } from './renderer-harness'

export const CLI = join(PROJECT_ROOT, 'bin', 'ledgerline.cjs')

/** The keychain entries this test file's CLI runs keep keys under: their own, never the installed Ledgerline's. */
export const CLI_KEYCHAIN_SERVICE = `app.ledgerline.test-cli-${randomUUID()}`

export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Starts the command: the child (to signal it) and what it printed once it has ended (killed after `timeoutMs`). */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { timeoutMs?: number } = {}
): { child: ChildProcess; ended: Promise<CliRun> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: PROJECT_ROOT,
    // Progress on stderr comes only when a test asks for it: after a second of work it would hang on how busy the machine is.
    // ISO days unless a test asks for a locale: what the CLI says must not hang on the machine's LANG.
    env: {
      ...process.env,
      LEDGERLINE_KEYCHAIN_SERVICE: CLI_KEYCHAIN_SERVICE,
      LEDGERLINE_PROGRESS: 'never',
      LEDGERLINE_LOCALE: 'iso',
      ...env
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const ended = new Promise<CliRun>((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
    const timeout = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timeout)
      resolve({ code, signal, stdout, stderr })
    })
  })
  return { child, ended }
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, options: { timeoutMs?: number } = {}): Promise<CliRun> {
  return startCli(args, env, options).ended
}

/** One profile "Books" (live, in `timeZone`, null: the computer's) and its one successful payment of 12.50, in a migrated cache. */
export function addPayment(path: string, p: { reference: string; currency: string; createdAt: string; timeZone: string | null }): void {
  const cache = new Database(path)
  cache
    .prepare(
      "insert into profiles (id, name, base_url, mode, created_at, time_zone) values ('p', 'Books', 'https://x/v1', 'live', '2026-01-01', ?)"
    )
    .run(p.timeZone)
  cache
    .prepare(
      "insert into payments (profile_id, id, reference, amount_raw, amount_minor, currency, status, status_raw, is_final, created_at, created_at_ms, raw, fetched_at_ms) values ('p', 'id-1', ?, '12.50', 1250, ?, 'successful', 'SUCCESS', 1, ?, ?, '{}', 0)"
    )
    .run(p.reference, p.currency, p.createdAt, Date.parse(p.createdAt))
  cache.close()
}
