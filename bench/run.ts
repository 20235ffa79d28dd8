// npm run bench [api|ingest|search|paced|second-sync|host|reconcile|decisions|formats|ui|bulk|team|cli|e2e ...]: every benchmark figure with its ratio to a baseline from the same run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiBench } from './api'
import { bulkBench } from './bulk'
import { cliBench } from './cli'
import { decisionsBench } from './decisions'
import { e2eBench } from './e2e'
import { hostBench } from './host'
import { reconcileBench } from './reconcile'
import { statementFormatsBench } from './statement-formats'
import { syncBenches } from './sync'
import { teamBench } from './team'
import { uiBench } from './ui'

const ALL = [
  'api',
  'ingest',
  'search',
  'paced',
  'second-sync',
  'host',
  'reconcile',
  'decisions',
  'formats',
  'ui',
  'bulk',
  'team',
  'cli',
  'e2e'
]

async function main(): Promise<void> {
  const asked = process.argv.slice(2)
  const unknown = asked.filter((a) => !ALL.includes(a))
  if (unknown.length > 0) throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; choose from ${ALL.join(', ')}`)
  const which = new Set(asked.length > 0 ? asked : ALL)
  console.log(`Ledgerline benchmarks — node ${process.version}, ${process.platform}-${process.arch}`)
  if (which.has('api')) await apiBench()
  await syncBenches(which)
  if (which.has('host')) {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-host-'))
    try {
      await hostBench(dir)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  if (which.has('reconcile')) reconcileBench()
  if (which.has('decisions')) decisionsBench()
  if (which.has('formats')) await statementFormatsBench()
  if (which.has('ui')) await uiBench()
  if (which.has('bulk')) await bulkBench()
  if (which.has('team')) await teamBench()
  if (which.has('cli')) cliBench()
  if (which.has('e2e')) e2eBench()
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
