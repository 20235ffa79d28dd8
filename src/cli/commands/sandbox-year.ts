// ledgerline sandbox year: the Sandbox's generated year (a keyless profile's payments in the cache, twelve monthly statements and their answers in a folder) and, with --decide, each month reconciled, decided as its answers say by a simulated accountant, and closed, so rules evaluate and rules proposed have a year to read.
import { existsSync, readFileSync, statSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { paymentRowIn } from '../../main/cache/api-rows'
import { CacheStore } from '../../main/cache/store'
import { writeFileSafely } from '../../main/files/safe-file'
import { ReconService } from '../../main/reconcile/service'
import { statementYear, type YearAnswer, type YearMonth } from '../../sandbox/year'
import type { Payment } from '../../shared/api/schemas'
import type { ReconItem } from '../../shared/reconcile'
import { StderrProgress } from '../progress'
import { MAX_SEED, openData, positiveInt, say, UsageError } from '../common'

export async function sandboxYearCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      db: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string' },
      year: { type: 'string' },
      decide: { type: 'boolean' },
      'leave-last-open': { type: 'boolean' },
      json: { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  if (!values.out) throw new UsageError('sandbox year needs --out FOLDER, where its twelve statements are written')
  // Every refusal before anything is written: no cache made, no file touched.
  if (values['leave-last-open'] && !values.decide) throw new UsageError('--leave-last-open goes with --decide')
  const dir = resolve(values.out)
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--out must be a folder that exists (${dir} is not)`)
  const seed = positiveInt('seed', values.seed, 1, 0, MAX_SEED)
  const yearNo = positiveInt('year', values.year, 2025, 2000)
  if (yearNo > 2100) throw new UsageError(`--year must be a year from 2000 to 2100 (got ${yearNo})`)
  const year = statementYear({ seed, year: yearNo })
  const files = [...year.months.map((m) => ({ name: m.file, text: m.csv })), { name: 'answers.json', text: answersJson(year.months) }]
  // Statements of another seed or year already there are the user's: never written over.
  const other = files.filter((f) => existsSync(join(dir, f.name)) && readFileSync(join(dir, f.name), 'utf8') !== f.text).map((f) => f.name)
  if (other.length > 0)
    throw new UsageError(
      `${dir} already holds ${other.length === 1 ? 'a file' : `${other.length} files`} this year would write over (${other.slice(0, 3).join(', ')}${other.length > 3 ? ', …' : ''}), of another seed or year or changed since: give another --out folder`
    )
  const data = openData(values.db, 'fills')
  try {
    const profile = data.profiles.keyless(`Sandbox year ${yearNo} (seed ${seed})`, year.timeZone)
    const recon = new ReconService(data.db)
    if (values.decide && recon.sessions(profile.id).length > 0)
      throw new UsageError(`"${profile.name}" already has sessions in this cache: give --decide a new cache (or another --seed or --year)`)
    // The provider's records, written as a sync writes them.
    const toRow = paymentRowIn(year.timeZone)
    new CacheStore(data.db).writePage(
      profile.id,
      'payments',
      year.months.flatMap((m) => m.payments.map((p) => toRow(p as unknown as Payment)))
    )
    for (const f of files) await writeFileSafely(join(dir, f.name), (fd) => writeSync(fd, f.text))
    const closed: { month: string; sessionId: string; decisions: number }[] = []
    let open: { month: string; sessionId: string } | null = null
    if (values.decide) {
      const progress = new StderrProgress('sandbox year')
      for (const [k, m] of year.months.entries()) {
        const sessionId = await reconcileMonth(recon, profile.id, m)
        if (values['leave-last-open'] && k === year.months.length - 1) {
          open = { month: m.month, sessionId }
          break
        }
        progress.phase(`deciding ${m.file} as its answers say`)
        closed.push({ month: m.month, sessionId, decisions: await decideAsAnswered(recon, sessionId, m) })
        await recon.close(sessionId, { name: profile.name, mode: profile.mode })
      }
      progress.end()
    }
    const payments = year.months.reduce((n, m) => n + m.payments.length, 0)
    // The commands suggested name the cache this one filled.
    const db = values.db ? ` --db ${JSON.stringify(data.file)}` : ''
    if (values.json)
      process.stdout.write(
        `${JSON.stringify({ profile: profile.name, folder: dir, payments, months: year.months.map((m) => m.file), closed, open })}\n`
      )
    else
      say(
        [
          `Wrote ${payments} payments of ${year.customers.length} customers who pay every month (and one-off payers) into "${profile.name}" in ${data.file},`,
          `and twelve statements with their answers (answers.json) into ${dir}:`,
          `  ${year.months.map((m) => m.file).join(', ')}`,
          `The bank names half the customers by a nickname, some by their business; many pay the same amounts; every month has the SMS charge and the transfer levy.`,
          values.decide
            ? `${open ? `Each month but the last` : 'Each month'} was reconciled, decided as answers.json says (suggestions accepted or rejected, the rest matched by hand, the charges resolved) and closed${open ? `; ${open.month} is matched and open for you to decide (session ${open.sessionId})` : ''}. Now try:\n  ledgerline rules evaluate${db} --profile "${profile.name}"\n  ledgerline rules proposed${db} --profile "${profile.name}"`
            : `Reconcile a month:\n  ledgerline reconcile${db} --profile "${profile.name}" --against ${join(dir, year.months[0]?.file ?? '')} --from ${year.months[0]?.from} --to ${year.months[0]?.to} --out report.csv`,
          ''
        ].join('\n')
      )
    return 0
  } finally {
    await data.close()
  }
}

/** Each month's answers by its statement's file name, as answers.json holds them. */
function answersJson(months: readonly YearMonth[]): string {
  return `${JSON.stringify(Object.fromEntries(months.map((m) => [m.file, m.answers])), null, 2)}\n`
}

/** One month's statement imported and a session over it matched (learning from the months before). */
async function reconcileMonth(recon: ReconService, profileId: string, month: YearMonth): Promise<string> {
  const imported = await recon.importStatement({ profileId, name: month.file, bytes: Buffer.from(month.csv), mapping: {} })
  if (imported.status !== 'imported') throw new Error(`${month.file} was not imported (${imported.status})`)
  const session = recon.createSession({
    profileId,
    name: month.month,
    source: 'payments',
    from: month.from,
    to: month.to,
    timeZone: 'Africa/Lagos',
    fileIds: [imported.file.id]
  })
  await recon.run(session.id)
  return session.id
}

/**
 * A month decided as a careful accountant with its answers would: each suggestion accepted when the
 * answers pair that line with that payment, else rejected (until none is left); each payment line still
 * without its payment matched by hand; the bank's charge and levy resolved with their codes.
 */
export async function decideAsAnswered(recon: ReconService, sessionId: string, month: YearMonth): Promise<number> {
  const session = { id: sessionId }
  const byLine = new Map<number, YearAnswer>(month.answers.map((a) => [a.line, a]))
  const answerOf = (item: ReconItem): YearAnswer | undefined => (item.file.length === 1 ? byLine.get(item.file[0]?.line ?? 0) : undefined)
  let decisions = 0
  // Suggestions first, one at a time: a rejection frees a record another line may then be offered.
  for (let guard = 0; guard < 10_000; guard++) {
    const open = [...recon.allItems(session.id)].find((i) => i.outcome === 'suggested' && i.decision === null)
    if (!open) break
    const right = open.provider.length === 1 && answerOf(open)?.reference === open.provider[0]?.reference
    await recon.decide(session.id, { kind: right ? 'accept' : 'reject', itemKey: open.key })
    decisions++
  }
  // Each payment line not yet with its payment, matched by hand.
  const items = [...recon.allItems(session.id)]
  const paymentIds = new Map(items.flatMap((i) => i.provider.map((p) => [p.reference ?? '', p.id] as const)))
  const paired = new Set(items.filter((i) => i.provider.length > 0 && i.file.length > 0).flatMap((i) => i.file.map((f) => f.id)))
  for (const item of items)
    for (const line of item.file) {
      const answer = byLine.get(line.line)
      if (paired.has(line.id) || answer?.kind !== 'payment' || !answer.reference) continue
      const id = paymentIds.get(answer.reference)
      if (!id) continue
      await recon.decide(session.id, { kind: 'match', providerIds: [id], fileIds: [line.id] })
      decisions++
    }
  // The bank's own charges, resolved with their reason codes.
  for (const item of [...recon.allItems(session.id)]) {
    const answer = answerOf(item)
    if (item.provider.length > 0 || !answer || answer.kind === 'payment' || item.resolved) continue
    await recon.decide(session.id, { kind: 'reason', itemKey: item.key, code: answer.kind })
    await recon.decide(session.id, { kind: 'resolve', itemKey: item.key, resolved: true })
    decisions += 2
  }
  return decisions
}
