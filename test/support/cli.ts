// Runs the real ledgerline command in a child process and collects what it printed.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { PROJECT_ROOT } from './renderer-harness'

export const CLI = join(PROJECT_ROOT, 'bin', 'ledgerline.cjs')

export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, options: { killAfterMs?: number; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const killer = options.killAfterMs !== undefined ? setTimeout(() => child.kill('SIGKILL'), options.killAfterMs) : undefined
    const timeout = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(killer)
      clearTimeout(timeout)
      resolve({ code, signal, stdout, stderr })
    })
  })
}
