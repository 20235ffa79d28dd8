// One decisions benchmark in a fresh process: a stored session of N records and N lines in a real cache, then each decision kind taken several times through the service as the app takes it (kept as an event, applied in place or by a run), each timed; prints one JSON line.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { paymentRow } from '../src/main/cache/api-rows'
import { openCache } from '../src/main/cache/open'
import { CacheStore } from '../src/main/cache/store'
import { ReconService } from '../src/main/reconcile/service'
import type { Decision, ReconItem } from '../src/shared/reconcile'

const NAMES = ['Ada Obi', 'Kofi Mensah', 'Ngozi Umeh', 'Bola Ade', 'Chidi Eze', 'Amina Bello', 'Yaw Boateng', 'Efua Owusu']

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number
}

/** The payments and their statement as the reconcile bench derives them: 97% by reference, 1% another amount, 1% by name only, 0.5% missing, 0.5% bank charges. */
function build(n: number): { payments: object[]; csv: string } {
  const rand = rng(n)
  const payments: object[] = []
  const lines = ['Account number,0123456789', 'Currency,NGN', 'Date,Reference,Description,Amount']
  for (let i = 0; i < n; i++) {
    const d = 1 + Math.floor(rand() * 28)
    const amount = 100 + Math.floor(rand() * 5_000_000)
    const day = `2026-10-${String(d).padStart(2, '0')}`
    const reference = `ORD-${String(i).padStart(8, '0')}`
    payments.push({
      id: `pay_${i.toString(36)}`,
      reference,
      amount: amount / 100,
      currency: 'NGN',
      status: 'successful',
      channel: 'card',
      totalFees: 0,
      createdAt: `${day}T10:00:00Z`,
      metadata: { customerName: NAMES[i % NAMES.length] }
    })
    const fate = rand()
    const major = (m: number): string => (m / 100).toFixed(2)
    if (fate < 0.97) lines.push(`${day},${reference},NIP TRANSFER,${major(amount)}`)
    else if (fate < 0.98) lines.push(`${day},${reference},NIP TRANSFER,${major(amount + 100)}`)
    else if (fate < 0.99) lines.push(`${day},,TRANSFER FROM ${(NAMES[i % NAMES.length] as string).toUpperCase()} ${i},${major(amount)}`)
    else if (fate < 0.995) lines.push(`${day},,BANK CHARGE,-${major(50 + Math.floor(rand() * 5000))}`)
  }
  return { payments, csv: lines.join('\n') }
}

async function bench(n: number, samples: number): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-decisions-'))
  try {
    const db = openCache(join(dir, 'cache.sqlite'))
    db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('p', 'Bench', null, 'test', '2026-01-01')").run()
    const { payments, csv } = build(n)
    const store = new CacheStore(db)
    for (let k = 0; k < payments.length; k += 50_000)
      store.writePage(
        'p',
        'payments',
        payments.slice(k, k + 50_000).map((p) => paymentRow(p as Parameters<typeof paymentRow>[0]))
      )
    const service = new ReconService(db, { user: 'bench' })
    const imported = await service.importStatement({ profileId: 'p', name: 'october.csv', bytes: Buffer.from(csv), mapping: {} })
    if (imported.status !== 'imported') throw new Error(`the statement was not imported: ${imported.status}`)
    const session = service.createSession({
      profileId: 'p',
      name: 'October',
      source: 'payments',
      from: '2026-10-01',
      to: '2026-10-31',
      timeZone: 'UTC',
      fileIds: [imported.file.id]
    })
    let t = process.hrtime.bigint()
    await service.run(session.id)
    const runMs = ms(t)
    const items = (outcome: string): ReconItem[] => service.items(session.id, { outcome: outcome as never, limit: 5000 }).items
    const rand = rng(42)
    const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)] as T
    const kinds: Record<string, () => Decision | null> = {
      note: () => ({ kind: 'note', itemKey: pick(items('matched')).key, note: 'checked against the remittance' }),
      accept: () => {
        const s = items('suggested')
        return s.length > 0 ? { kind: 'accept', itemKey: pick(s).key } : null
      },
      reject: () => {
        const s = items('suggested')
        return s.length > 0 ? { kind: 'reject', itemKey: pick(s).key } : null
      },
      unmatch: () => ({ kind: 'unmatch', itemKey: pick(items('matched')).key }),
      match: () => {
        const lines = items('only_in_file').filter((i) => (i.file[0]?.amountMinor ?? 0) > 0)
        const records = items('only_in_provider')
        return lines.length > 0 && records.length > 0
          ? { kind: 'match', providerIds: [pick(records).provider[0]?.id as string], fileIds: [pick(lines).file[0]?.id as string] }
          : null
      },
      undo: () => ({ kind: 'undo' })
    }
    const timings: Record<string, { samples: number[]; inPlace: number }> = {}
    for (const [kind, make] of Object.entries(kinds)) {
      const entry = (timings[kind] = { samples: [] as number[], inPlace: 0 })
      for (let k = 0; k < samples; k++) {
        const decision = make()
        if (!decision) break
        t = process.hrtime.bigint()
        const { inPlace } = await service.decide(session.id, decision)
        entry.samples.push(ms(t))
        if (inPlace) entry.inPlace++
      }
    }
    db.close()
    const notes = timings['note']?.samples ?? []
    return {
      n,
      runMs,
      kinds: Object.fromEntries(
        Object.entries(timings).map(([kind, { samples: s, inPlace }]) => [
          kind,
          {
            samples: s.length,
            inPlace,
            p95Ms: s.length > 0 ? p95(s) : null,
            ratioToNote: s.length > 0 && notes.length > 0 ? p95(s) / p95(notes) : null
          }
        ])
      ),
      peakRssMb: process.resourceUsage().maxRSS / 1024
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const [n, samples] = process.argv.slice(2).map(Number)
bench(n as number, samples as number)
  .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  })
