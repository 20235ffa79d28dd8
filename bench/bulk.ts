// Bulk CSV rules on a 100,000-row payout file against papaparse parsing the same file alone, and the builder in Chromium kept drawing while it reads and checks that file.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobInfo } from '../src/shared/ipc/contract'
import { PROJECT_ROOT, RENDERER_DIR, startRendererHarness } from '../test/support/renderer-harness'
import { payoutFile, ROWS } from './bulk-file'
import { fmt, line, runScript, withCompiled } from './common'
import { percentile } from './stats'

function rulesBench(): void {
  const run = withCompiled('bulk-rules.ts', (script) =>
    runScript<{ megabytes: number; baselineMs: number; rulesMs: number; ratio: number; errors: number }>(script, [], 'bulk rules')
  )
  console.log(
    `\nBulk CSV rules: a ${fmt(ROWS)}-row payout file (${fmt(run.megabytes, 1)} MB, 1% rows with mistakes) against papaparse parsing it alone (baseline)`
  )
  line('papaparse alone, median of 15 (baseline)', `${fmt(run.baselineMs)} ms`)
  line(
    `validating it (read, rules, totals; ${fmt(run.errors)} errors), median of 15`,
    `${fmt(run.rulesMs)} ms`,
    `target ≤ 1,000 ms; ${fmt(run.ratio, 2)}× papaparse, median of the pairs' ratios (target ≤ 2×)`
  )
}

/** Frame gaps from requestAnimationFrame until `done` (a page expression) holds, or for `ms` milliseconds. */
const FRAMES = (done: string, ms: number): string => `new Promise((resolve) => {
  const gaps = []
  let last = performance.now()
  const start = last
  const step = (now) => {
    gaps.push(now - last); last = now
    if ((${done}) || now - start > ${ms}) resolve(gaps)
    else requestAnimationFrame(step)
  }
  requestAnimationFrame(step)
})`

async function builderBench(text: string): Promise<void> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    const build = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8'
    })
    if (build.status !== 0) throw new Error(`could not build the renderer: ${build.stderr.trim().split('\n').pop()}`)
  }
  console.log(
    `\nPayout builder in Chromium (headless): frames while the ${fmt(ROWS)}-row file is checked, against the same builder idle (baseline)`
  )
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-bulk-'))
  const harness = await startRendererHarness()
  try {
    const file = join(dir, 'payroll.csv')
    writeFileSync(file, text)
    const job = (await harness.host.call('sync:start', { resources: ['banks'] })) as { ok: true; value: JobInfo }
    for (let i = 0; i < 300; i++) {
      const list = (await harness.host.call('job:list', undefined)) as { ok: true; value: JobInfo[] }
      if (list.value.find((j) => j.id === job.value.id)?.state !== 'running') break
      await new Promise((r) => setTimeout(r, 100))
    }
    const { page } = harness
    await page.setViewportSize({ width: 1600, height: 900 })
    await page.goto(`${harness.baseUrl}#/bulk`)
    const builder = page.getByTestId('builder-transfers')
    await builder.locator('revogr-data .rgCell').first().waitFor()
    const idle = ((await page.evaluate(FRAMES('false', 1_500))) as number[]).sort((a, b) => a - b)
    const checking = `!document.querySelector('[data-testid="builder-transfers"] [data-testid="checking"]') && document.querySelector('[data-testid="builder-transfers"] [data-testid="error-count"]').textContent !== '0 error(s)'`
    harness.host.ui.openAnswer = file
    const started = performance.now()
    const [gaps] = await Promise.all([
      page.evaluate(FRAMES(checking, 60_000)) as Promise<number[]>,
      builder.getByTestId('open-csv').click()
    ])
    const totalMs = performance.now() - started
    const errors = (await builder.getByTestId('error-count').textContent()) ?? ''
    const sorted = [...gaps].sort((a, b) => a - b)
    const longest = sorted.at(-1) ?? 0
    line('idle builder: longest frame gap (baseline)', `${fmt(idle.at(-1) ?? 0, 1)} ms`, `p95 ${fmt(percentile(idle, 95), 1)} ms`)
    line(`open + check ${fmt(ROWS)} rows (${errors}): time to the count`, `${fmt(totalMs)} ms`)
    line(
      '  longest frame gap meanwhile (open, then the check in slices)',
      `${fmt(longest, 1)} ms`,
      `target ≤ 100 ms; ${fmt(longest / Math.max(idle.at(-1) ?? 1, 1), 1)}× idle; p95 ${fmt(percentile(sorted, 95), 1)} ms over ${fmt(gaps.length)} frames`
    )
  } finally {
    await harness.close()
    rmSync(dir, { recursive: true, force: true })
    rmSync(harness.host.config.paths.userData, { recursive: true, force: true })
  }
}

export async function bulkBench(): Promise<void> {
  rulesBench()
  await builderBench(payoutFile())
}
