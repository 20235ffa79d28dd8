// One reconciliation benchmark in a fresh process (so its peak RSS is its own): matching N × N records, or importing an N-line statement; prints one JSON line.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Papa from 'papaparse'
import { openCache } from '../src/main/cache/open'
import { runMatch } from '../src/main/reconcile/engine'
import type { EngineFileRow, EngineProvider } from '../src/main/reconcile/match/types'
import { ReconService } from '../src/main/reconcile/service'
import { DEFAULT_SETTINGS } from '../src/shared/reconcile'
import { rng } from './month'

const NAMES = [
  'Ada Obi',
  'Kofi Mensah',
  'Ngozi Umeh',
  'Bola Ade',
  'Chidi Eze',
  'Amina Bello',
  'Yaw Boateng',
  'Efua Owusu',
  'Tunde Bakare',
  'Zainab Musa'
]
const day = (d: number): string => `2026-10-${String(1 + (d % 28)).padStart(2, '0')}`

/**
 * N provider payments and a statement derived from them: 97% by reference (a third in lower case
 * with stray spaces), 1% with another amount, 1% without a reference but naming the payer, 0.5%
 * left out, and 0.5% bank charges nothing explains; in shuffled order. Both sides are handed over
 * as the app hands them to the engine, read back from storage: every text its own flat string. Built
 * in place, a line's reference would be the record's own string object (a join would compare
 * pointers, not text, and reuse the hash the record's key had computed) or, written with its stray
 * spaces, a string of joined pieces that every character read must walk.
 */
function dataset(n: number): { provider: EngineProvider[]; file: EngineFileRow[] } {
  const rand = rng(n)
  const provider: EngineProvider[] = new Array(n)
  // Each statement line as [provider index, kind, amount, day]; shuffled, then built in that order,
  // as reading a statement builds its rows (in file order, whatever order that is).
  const specs: [number, number, number, number][] = []
  for (let i = 0; i < n; i++) {
    const d = Math.floor(rand() * 28)
    const amount = 100 + Math.floor(rand() * 5_000_000)
    provider[i] = {
      id: `pay_${i.toString(36).padStart(8, '0')}`,
      reference: `ORD-${String(i).padStart(8, '0')}`,
      serviceReference: `SRV${(i * 7919).toString(16).toUpperCase()}`,
      day: day(d),
      amountMinor: amount,
      feesMinor: 0,
      currency: 'NGN',
      status: 'successful',
      channel: 'card',
      text: NAMES[i % NAMES.length] as string
    }
    const fate = rand()
    const late = d + (rand() < 0.2 ? 1 : 0)
    if (fate < 0.97) specs.push([i, 0, amount, late])
    else if (fate < 0.98) specs.push([i, 1, amount + 100, late])
    else if (fate < 0.99) specs.push([i, 2, amount, late])
    else if (fate < 0.995) specs.push([i, 3, -(50 + Math.floor(rand() * 5000)), late])
  }
  for (let k = specs.length - 1; k > 0; k--) {
    const j = Math.floor(rand() * (k + 1))
    const t = specs[k] as [number, number, number, number]
    specs[k] = specs[j] as [number, number, number, number]
    specs[j] = t
  }
  const file: EngineFileRow[] = specs.map(([i, kind, amountMinor, d], line) => {
    const reference = `ORD-${String(i).padStart(8, '0')}`
    const ref = kind === 2 || kind === 3 ? null : i % 3 === 0 ? `  ${reference.toLowerCase()} ` : reference
    const description =
      kind === 2 ? `TRANSFER FROM ${(NAMES[i % NAMES.length] as string).toUpperCase()} ${i}` : kind === 3 ? 'BANK CHARGE' : 'NIP TRANSFER'
    return {
      id: `${kind === 3 ? 'x' : 'f'}:${i.toString(36)}`,
      fileId: 'bench',
      line: line + 2,
      date: day(d),
      amountMinor,
      currency: 'NGN',
      reference: ref,
      description,
      counterparty: null
    }
  })
  return { provider: provider.map(readBack), file: file.map(readBack) }
}

/** A full collection (the worker runs with --expose-gc). */
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('The reconcile bench worker needs node --expose-gc.')
  gc()
}

/** A row as storage gives it back: a fresh object whose texts are fresh flat strings. */
function readBack<T>(row: T): T {
  return JSON.parse(JSON.stringify(row)) as T
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6
}

/** A bare hash join of the same references, as sent: one map of the provider's, one look-up per line. */
function hashJoin(provider: EngineProvider[], file: EngineFileRow[]): number {
  const byRef = new Map<string, number>()
  for (let i = 0; i < provider.length; i++) byRef.set((provider[i] as EngineProvider).reference as string, i)
  let joined = 0
  for (const row of file) if (row.reference !== null && byRef.has(row.reference)) joined++
  return joined
}

async function match(n: number): Promise<object> {
  // Both warmed up on a small set first (three times, so the optimising compiler has seen every
  // pass), so neither figure includes compiling the code.
  const warm = dataset(20_000)
  for (let k = 0; k < 3; k++) {
    hashJoin(warm.provider, warm.file)
    runMatch(warm.provider, warm.file, DEFAULT_SETTINGS)
  }
  const { provider, file } = dataset(n)
  // Each side starts on a collected heap, so neither pays for the garbage of building the data (or
  // of the side before it): with a million records that is a full collection of several hundred ms.
  collectGarbage()
  let t = process.hrtime.bigint()
  const joined = hashJoin(provider, file)
  const baselineMs = ms(t)
  collectGarbage()
  t = process.hrtime.bigint()
  const result = runMatch(provider, file, DEFAULT_SETTINGS)
  const engineMs = ms(t)
  const counts: Record<string, number> = {}
  for (let k = 0; k < result.items.length; k++) {
    const outcome = result.items.outcome(k)
    counts[outcome] = (counts[outcome] ?? 0) + 1
  }
  return { n, fileRows: file.length, baselineMs, joined, engineMs, counts, peakRssMb: process.resourceUsage().maxRSS / 1024 }
}

/** Minor units as a bank prints them: "1,234.56", "-1,234.56". */
function printed(minor: number): string {
  const digits = Math.abs(minor).toString().padStart(3, '0')
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${digits.slice(-2)}`
}

/**
 * An N-line bank statement over October, day by day: a header block, Debit/Credit with thousands
 * separators. `withBalances`: its running balance column filled and its opening and closing balances
 * stated, so the import proves the statement; otherwise the column is empty and nothing is stated
 * (the proof has nothing to do: the import as it was before the statement proved itself).
 */
async function importStatement(n: number, withBalances: boolean): Promise<object> {
  const rand = rng(7)
  let balance = 1_000_000_00
  const lines = [
    'FIRST EXAMPLE BANK PLC',
    'Statement',
    withBalances ? `Opening balance,"${printed(balance)}"` : '',
    'Txn Date,Value Date,Reference,Narration,Debit,Credit,Balance'
  ]
  for (let i = 0; i < n; i++) {
    const d = `${String(1 + Math.floor((i * 28) / n)).padStart(2, '0')}/10/2026`
    const minor = 100 + Math.floor(rand() * 500_000_000)
    const major = printed(minor)
    const charge = i % 50 === 0
    balance += charge ? -minor : minor
    const after = withBalances ? `"${printed(balance)}"` : ''
    lines.push(
      charge
        ? `${d},${d},,SMS ALERT CHARGES,"${major}",,${after}`
        : `${d},${d}, ord-${String(i).padStart(8, '0')} ,NIP TRANSFER FROM CUSTOMER ${i % 1000},,"${major}",${after}`
    )
  }
  if (withBalances) lines.push(`,,,Closing balance,,,"${printed(balance)}"`)
  const bytes = Buffer.from(lines.join('\r\n'))
  lines.length = 0
  // Baseline: papaparse alone splitting the same text (its result dropped before the import). Each
  // side starts on a collected heap, as in the match: the import does not pay for the grid papaparse left.
  collectGarbage()
  let t = process.hrtime.bigint()
  const bareRows = Papa.parse<string[]>(bytes.toString('utf8'), { delimiter: ',' }).data.length
  const baselineMs = ms(t)
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-import-'))
  try {
    const db = openCache(join(dir, 'cache.sqlite'))
    db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('p', 'Bench', null, 'test', '2026-01-01')").run()
    collectGarbage()
    t = process.hrtime.bigint()
    const outcome = await new ReconService(db).importStatement({
      profileId: 'p',
      name: 'bench.csv',
      bytes,
      mapping: { defaultCurrency: 'NGN' }
    })
    const importMs = ms(t)
    db.close()
    return {
      n,
      withBalances,
      complete: outcome.parsed.proof?.complete ?? false,
      megabytes: bytes.byteLength / 1048576,
      bareRows,
      rows: outcome.parsed.rows.length,
      problems: outcome.parsed.problems.length,
      status: outcome.status,
      baselineMs,
      importMs,
      peakRssMb: process.resourceUsage().maxRSS / 1024
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const [mode, size] = process.argv.slice(2)
const n = Number(size)
const work = mode === 'import' || mode === 'import-balances' ? importStatement(n, mode === 'import-balances') : match(n)
work.then((out) => process.stdout.write(`${JSON.stringify(out)}\n`))
