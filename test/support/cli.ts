// Runs the real ledgerline command in a child process and collects what it printed.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { PROJECT_ROOT } from './renderer-harness'

export const CLI = join(PROJECT_ROOT, 'bin', 'ledgerline.cjs')

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
    env: { ...process.env, ...env },
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
