// Month after month from the CLI: a cache of one live profile's payments, and a bank statement of one account per month, as the chain and carried-forward tests write them.
import Database from 'better-sqlite3'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openCache } from '../../src/main/cache/open'

/** A cache at `path` with profile "Books" (live, UTC) and these NGN payments: [id, reference, amount in naira, status, ISO time, fees in naira]. */
export function cacheWithPayments(path: string, payments: readonly (readonly [string, string, number, string, string, number?])[]): void {
  openCache(path).close()
  const db = new Database(path)
  db.prepare(
    "insert into profiles (id, name, base_url, mode, created_at, time_zone) values ('p', 'Books', 'https://x/v1', 'live', '2026-01-01', 'UTC')"
  ).run()
  const pay = db.prepare(
    "insert into payments (profile_id, id, reference, amount_raw, amount_minor, fees_minor, currency, status, status_raw, is_final, created_at, created_at_ms, raw, fetched_at_ms) values ('p', ?, ?, ?, ?, ?, 'NGN', ?, ?, 1, ?, ?, '{}', 0)"
  )
  for (const [id, ref, amount, status, at, fees] of payments)
    pay.run(
      id,
      ref,
      String(amount),
      Math.round(amount * 100),
      Math.round((fees ?? 0) * 100),
      status,
      status.toUpperCase(),
      at,
      Date.parse(at)
    )
  db.close()
}

/** A bank statement in `dir` of account 0123456789 (or none, given '') in NGN: its opening, its lines (day, reference, amount), its closing. */
export function monthStatement(
  dir: string,
  name: string,
  opening: string,
  lines: [string, string, string][],
  closing: string,
  account = '0123456789'
): string {
  const path = join(dir, name)
  writeFileSync(
    path,
    [
      ...(account ? [`Account number,${account}`] : []),
      'Currency,NGN',
      `Opening balance,${opening}`,
      'Date,Reference,Amount,Details',
      ...lines.map(([day, ref, amount]) => `${day},${ref},${amount},${ref ? 'card' : 'sms charge'}`),
      `Closing balance,${closing}`
    ].join('\n') + '\n'
  )
  return path
}
