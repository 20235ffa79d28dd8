// A reconciliation over a real in-memory cache for the scenario tests: a test profile with the payments given, a statement imported, a session over it run.
import { paymentRow } from '../../src/main/cache/api-rows'
import { openCache } from '../../src/main/cache/open'
import { CacheStore } from '../../src/main/cache/store'
import { ReconService } from '../../src/main/reconcile/service'
import type { SessionInfo } from '../../src/shared/reconcile'

/** A payment as the scenarios need it: NGN, card, no fees, successful, unless said otherwise. */
export interface ScenarioPayment {
  n: number
  amount: number
  day: string
  status?: string
  fees?: number
  /** The customer as the provider names them (the payment's metadata). */
  customer?: { name: string; email: string }
}

/** A cache (in memory unless a file is given) holding the 'test' profile's payments (reference PAY-000n, id id-n), and a service over it on a ticking clock, as user "ada". */
export function scenarioService(payments: ScenarioPayment[], file = ':memory:'): ReconService {
  const db = openCache(file)
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('test', 'Acme test', null, 'test', '2026-01-01')").run()
  new CacheStore(db).writePage(
    'test',
    'payments',
    payments.map((p) =>
      paymentRow({
        id: `id-${p.n}`,
        reference: `PAY-000${p.n}`,
        amount: p.amount,
        currency: 'NGN',
        status: p.status ?? 'successful',
        channel: 'card',
        totalFees: p.fees ?? 0,
        createdAt: `${p.day}T10:00:00Z`,
        ...(p.customer ? { metadata: { customerName: p.customer.name, customerEmail: p.customer.email } } : {})
      })
    )
  )
  let clock = Date.UTC(2026, 10, 1, 9)
  return new ReconService(db, { now: () => new Date((clock += 1000)), user: 'ada' })
}

/** Imports `csv` (NGN unless it says) as `name`, creates a payments session over it for the days given (UTC), and runs it. */
export async function scenarioSession(
  service: ReconService,
  csv: string,
  options: { name: string; from: string; to: string; account?: string }
): Promise<SessionInfo> {
  const imported = await service.importStatement({
    profileId: 'test',
    name: options.name,
    bytes: Buffer.from(csv),
    mapping: { defaultCurrency: 'NGN' }
  })
  if (imported.status !== 'imported') throw new Error(`${options.name} was not imported: ${imported.status}`)
  const session = service.createSession({
    profileId: 'test',
    name: 'October',
    source: 'payments',
    from: options.from,
    to: options.to,
    timeZone: 'UTC',
    fileIds: [imported.file.id],
    account: options.account
  })
  await service.run(session.id)
  return session
}

/** Every item of a session in order and its totals, as text: what a full run of the same events must give again. */
export function sessionShown(service: ReconService, sessionId: string): string {
  return JSON.stringify({ items: [...service.allItems(sessionId)], totals: service.totals(sessionId) })
}

/** An NGN statement of these lines (date, reference, description, amount), its opening balance 0 and its closing balance their sum. */
export function balancedStatement(lines: readonly string[]): string {
  const total = lines.reduce((n, l) => n + Math.round(Number(l.split(',').at(-1)) * 100), 0)
  return [
    'Account number,0123456789',
    'Currency,NGN',
    'Opening balance,0.00',
    'Date,Reference,Description,Amount',
    ...lines,
    `Closing balance,${(total / 100).toFixed(2)}`
  ].join('\n')
}
