// ledgerline journal: a closed session's journal for the ledger in the import format of the user's ledger, its figures tied to the session's summary; and journal map, the profile's account map.
import { writeSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { moneyText } from '../../shared/money'
import { periodInWords } from '../../shared/periods'
import { CHARGE_KINDS, type ChargeKind } from '../../shared/reconcile'
import { writeFileSafely } from '../../main/files/safe-file'
import { AccountMaps } from '../../main/journal/account-map'
import { closedSessionJournal } from '../../main/journal/entries'
import { journalFile } from '../../main/journal/formats'
import { ReconService } from '../../main/reconcile/service'
import { JOURNAL_ACCOUNTS, JOURNAL_FORMATS, type Journal, type JournalAccount, type JournalFormat } from '../../shared/journal'
import { chooseProfile, COMMON, openData, outputPath, say, UsageError } from '../common'
import { StderrProgress } from '../progress'

export async function journalCommand(args: string[]): Promise<number> {
  if (args[0] === 'map') return mapCommand(args.slice(1))
  const { values } = parseArgs({
    args,
    options: { db: COMMON.db, json: COMMON.json, session: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } },
    strict: true,
    allowPositionals: false
  })
  if (!values.session) throw new UsageError('give the session with --session ID (ledgerline sessions lists them)')
  const format = values.format as JournalFormat | undefined
  if (!format || !JOURNAL_FORMATS.includes(format)) throw new UsageError(`journal needs --format ${JOURNAL_FORMATS.join('|')}`)
  if (!values.out) throw new UsageError('journal needs --out FILE')
  const out = outputPath('out', values.out)
  const data = openData(values.db, 'reads')
  try {
    const service = new ReconService(data.db)
    const session = service.session(values.session)
    const progress = new StderrProgress('journal')
    progress.phase(`reading the items of "${session.name}"`)
    const { journal, mapSaved } = closedSessionJournal(service, new AccountMaps(data.db), session, data.profiles.get(session.profileId))
    progress.end()
    const text = journalFile(journal, format)
    await writeFileSafely(out, (fd) => void writeSync(fd, text))
    if (values.json) process.stdout.write(`${JSON.stringify({ file: out, format, ...journal })}\n`)
    else say(describeJournal(journal, format, out, mapSaved))
    return 0
  } finally {
    await data.close()
  }
}

/** The journal in words: each currency's figures, its entries' totals, what it leaves out, and where it went. */
function describeJournal(journal: Journal, format: JournalFormat, out: string, mapSaved: boolean): string {
  const lines = [
    `Journal of ${periodInWords(journal.session)}: ${journal.entries.length} entr${journal.entries.length === 1 ? 'y' : 'ies'}`
  ]
  for (const t of journal.totals) {
    const m = (minor: number): string => moneyText(minor, t.currency)
    lines.push(
      `  ${t.currency}: debits ${m(t.debitMinor)}, credits ${m(t.creditMinor)}${t.debitMinor === t.creditMinor ? ' (balanced)' : ' (NOT balanced)'}`
    )
    lines.push(`    The provider's fees on matched records: ${m(t.feesMinor)} (ties to the summary)`)
    for (const [kind, label] of Object.entries(CHARGE_KINDS) as [ChargeKind, string][])
      if (t.charges[kind] !== 0) lines.push(`    ${label} on the statement: ${m(t.charges[kind])}`)
    if (t.adjustmentsMinor !== 0) lines.push(`    Adjustments: ${m(t.adjustmentsMinor)}`)
  }
  if (journal.entries.length === 0) lines.push('  Nothing to book: no fees on matched records, no bank charges and no adjustments.')
  for (const n of journal.notes) lines.push(`  NOTE: ${n}`)
  if (!mapSaved)
    lines.push(
      "  NOTE: the profile has no account map yet: the accounts are named in words; set your ledger's codes with ledgerline journal map --set fees=CODE …"
    )
  lines.push(`Journal (${format}): ${out}`)
  return `${lines.join('\n')}\n`
}

/** ledgerline journal map: shows the profile's account map, or sets some of it (--set account=CODE, --tax-rate NAME). */
async function mapCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...COMMON,
      set: { type: 'string', multiple: true },
      'tax-rate': { type: 'string' }
    },
    strict: true,
    allowPositionals: false
  })
  const data = openData(values.db, values.set || values['tax-rate'] ? 'fills' : 'reads')
  try {
    const profile = chooseProfile(data, values)
    const maps = new AccountMaps(data.db)
    const changes: Partial<Record<string, string>> = {}
    for (const pair of values.set ?? []) {
      const at = pair.indexOf('=')
      if (at <= 0)
        throw new UsageError(`--set takes ACCOUNT=CODE (got "${pair}"); the accounts are ${Object.keys(JOURNAL_ACCOUNTS).join(', ')}`)
      changes[pair.slice(0, at).trim()] = pair.slice(at + 1)
    }
    const changing = Object.keys(changes).length > 0 || values['tax-rate'] !== undefined
    const map = changing
      ? maps.set(profile.id, { accounts: changes, ...(values['tax-rate'] !== undefined ? { taxRate: values['tax-rate'] } : {}) })
      : maps.get(profile.id).map
    if (values.json) process.stdout.write(`${JSON.stringify(map)}\n`)
    else {
      const out = [`Account map of ${profile.name}${changing ? ' (saved)' : ''}:`]
      for (const [account, label] of Object.entries(JOURNAL_ACCOUNTS) as [JournalAccount, string][])
        out.push(`  ${account.padEnd(13)} ${map.accounts[account].padEnd(28)} ${label}`)
      out.push(`  ${'tax rate'.padEnd(13)} ${map.taxRate}`)
      say(`${out.join('\n')}\n`)
    }
    return 0
  } finally {
    await data.close()
  }
}
