// Small helpers shared by the benchmarks: timing, aligned output, and compiling and running a measured script as the app's build would.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildSync } from 'esbuild'

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

export function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9
}

export function line(label: string, value: string, note = ''): void {
  console.log(`  ${label.padEnd(64)} ${value.padStart(16)}${note ? `   ${note}` : ''}`)
}

/**
 * Runs `use` with a script compiled as the app's build compiles the host: one bundle of plain
 * JavaScript. Run through tsx instead, every function would be wrapped to keep its name (tsx's
 * esbuild setting), which slows code that makes closures in its loops by a third and is not what
 * the app runs. The bundle sits inside the repository, so its packages resolve from node_modules.
 */
export function withCompiled<T>(entry: string, use: (script: string) => T): T {
  const cache = join(import.meta.dirname, '..', 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'ledgerline-bench-'))
  try {
    const out = join(dir, 'bench.mjs')
    buildSync({
      entryPoints: [join(import.meta.dirname, entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile: out,
      logLevel: 'error'
    })
    return use(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs a compiled bench script in its own process (so its peak RSS is its own) and reads the JSON line it prints last; `node` flags such as --expose-gc go first. */
export function runScript<T>(script: string, args: string[], what: string, node: string[] = []): T {
  const run = spawnSync(process.execPath, [...node, script, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (run.status !== 0) throw new Error(`${what} failed: ${run.stderr.trim().split('\n').slice(-3).join(' ')}`)
  return JSON.parse(run.stdout.trim().split('\n').pop() as string) as T
}
