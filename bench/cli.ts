// npm run bench -- cli: how long the `ledgerline` command takes to answer, from process start to exit, as an accountant scripting it waits: --help, and a note decided on a small cache; against a bare `node -e 0` in the same run. Before the bundle every call compiled the TypeScript through tsx (1.0 s for --help on the machine these figures were taken on, 1.7 s in the issue).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fmt, line } from './common'
import { percentile } from './stats'

const ROOT = join(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'ledgerline.cjs')

/** Median wall time of `runs` starts of node with `args`, in ms; each must exit 0. */
function median(args: string[], runs = 7): number {
  const times: number[] = []
  for (let k = 0; k < runs; k++) {
    const started = performance.now()
    const run = spawnSync(process.execPath, args, { env: { ...process.env, LEDGERLINE_PROGRESS: 'never' }, encoding: 'utf8' })
    times.push(performance.now() - started)
    if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr.trim().split('\n').pop() ?? ''}`)
  }
  return percentile(
    [...times].sort((a, b) => a - b),
    50
  )
}

export function cliBench(): void {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { encoding: 'utf8' })
  if (build.status !== 0) throw new Error(`the CLI bundle was not built: ${build.stderr}`)
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-cli-'))
  try {
    const db = join(dir, 'cache.sqlite')
    // A small cache as a newcomer's: the Sandbox's year, its last month open to decide.
    const year = spawnSync(
      process.execPath,
      [BIN, 'sandbox', 'year', '--db', db, '--out', dir, '--decide', '--leave-last-open', '--json'],
      {
        encoding: 'utf8',
        env: { ...process.env, LEDGERLINE_PROGRESS: 'never' }
      }
    )
    if (year.status !== 0) throw new Error(`sandbox year failed: ${year.stderr}`)
    const session = (JSON.parse(year.stdout) as { open: { sessionId: string } }).open.sessionId
    const items = spawnSync(process.execPath, [BIN, 'report', '--db', db, '--session', session, '--out', join(dir, 'items.csv')], {
      encoding: 'utf8'
    })
    // Exit 1: written, with items left to review (the month is open).
    if (items.status !== 0 && items.status !== 1) throw new Error(`report failed: ${items.stderr}`)
    // The first item's key, in the report's item_key column (written ="KEY" so a spreadsheet keeps it as text).
    const key = /"=""([0-9A-Z]{12})/.exec(readFileSync(join(dir, 'items.csv'), 'utf8').split('\n')[1] ?? '')?.[1]
    if (!key) throw new Error('no item key in the report')
    const note = [BIN, 'decide', '--db', db, '--session', session, '--item', key, 'note', 'checked against the remittance']

    console.log('\nThe ledgerline command, process start to exit (median of 7; a 2-core machine)')
    const bare = median(['-e', '0'])
    line('bare node (node -e 0): the baseline', `${fmt(bare)} ms`)
    const help = median([BIN, '--help'])
    line('ledgerline --help', `${fmt(help)} ms`, `target ≤ 300 ms — ${help <= 300 ? 'met' : 'NOT met'}; ${fmt(help / bare, 1)}× bare node`)
    const decide = median(note)
    line(
      'ledgerline decide … note (a small cache)',
      `${fmt(decide)} ms`,
      `target ≤ 500 ms — ${decide <= 500 ? 'met' : 'NOT met'}; ${fmt(decide / bare, 1)}× bare node`
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
