// A month of N provider payments and the bank statement derived from them, in a real cache: what the decisions and end-to-end benchmarks reconcile.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { paymentRow } from '../src/main/cache/api-rows'
import { openCache } from '../src/main/cache/open'
import { CacheStore } from '../src/main/cache/store'

const NAMES = ['Ada Obi', 'Kofi Mensah', 'Ngozi Umeh', 'Bola Ade', 'Chidi Eze', 'Amina Bello', 'Yaw Boateng', 'Efua Owusu']

/** A small fast PRNG so every run builds the same data. */
export function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The payments (as the API gives them) and their statement as a CSV: 97% by reference, 1% another amount, 1% by name only, 0.5% missing, 0.5% bank charges. */
function buildMonth(n: number): { payments: object[]; csv: string } {
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

/** A cache at `dir`/cache.sqlite holding profile "Bench" (id p) and the payments as a sync stores them, and `dir`/october.csv; returns both paths. */
export function monthInCache(dir: string, n: number): { cache: string; statement: string } {
  const { payments, csv } = buildMonth(n)
  const cache = join(dir, 'cache.sqlite')
  const statement = join(dir, 'october.csv')
  writeFileSync(statement, csv)
  const db = openCache(cache)
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('p', 'Bench', null, 'test', '2026-01-01')").run()
  const store = new CacheStore(db)
  for (let k = 0; k < payments.length; k += 50_000)
    store.writePage(
      'p',
      'payments',
      payments.slice(k, k + 50_000).map((p) => paymentRow(p as Parameters<typeof paymentRow>[0]))
    )
  db.close()
  return { cache, statement }
}
