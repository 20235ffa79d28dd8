// `ledgerline import`, `reconcile` and `audit verify`: statements in, a session run and its reports written, the audit chain checked; exit codes like diff.
import { readFileSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { mappingSchema } from '../../shared/ipc/reconcile'
import { bankReconciliations } from '../../shared/bank-reconciliation'
import { moneyText, parseMajor, toMajorString } from '../../shared/money'
import { isTimeZone } from '../../shared/time'
import {
  AGE_BUCKETS,
  agedAmountInWords,
  AGEING_KINDS,
  carriedInWords,
  feeBasisInWords,
  type AgeingKind,
  lineWhere,
  RECON_SOURCES,
  type ReconSettings,
  type ReconSource,
  type ReconSummary,
  type StatementMapping
} from '../../shared/reconcile'
import { chainLines } from '../../shared/periods'
import { verifyAudit } from '../../main/reconcile/audit'
import type { ParsedStatement } from '../../main/reconcile/import/parsed-statement'
import { writeItemsCsv, writeSummaryCsv, writeXlsx, type PausingWrite } from '../../main/reconcile/report'
import { bankRecStatement, writeBankRecPdf } from '../../main/reconcile/bank-rec-statement'
import { buildSummary } from '../../main/reconcile/totals'
import { verifyEvidencePack } from '../../main/reconcile/evidence'
import { ReconService, StatementReads, storedFileIds, type ImportOutcome } from '../../main/reconcile/service'
import { AppError } from '../../main/errors'
import { Interrupt } from '../interrupt'
import { StderrProgress, sizeInWords } from '../progress'
import { chooseProfile, cliLocale, COMMON, openData, outputPath, PLAIN_NOTE, positiveInt, say, UsageError } from '../common'

function readMapping(path: string | undefined): Partial<StatementMapping> {
  if (!path) return {}
  let json: unknown
  try {
    json = JSON.parse(readFileSync(resolve(path), 'utf8'))
  } catch (error) {
    throw new UsageError(`--mapping ${path}: ${(error as Error).message}`)
  }
  const parsed = mappingSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new UsageError(`--mapping ${path}: ${issue?.path.join('.') || 'mapping'}: ${issue?.message ?? 'not a mapping'}`)
  }
  return parsed.data as Partial<StatementMapping>
}

/** A file named on the command line (a statement, an evidence pack), or a usage error that says why it cannot be read. */
function readGivenFile(path: string): Buffer {
  try {
    return readFileSync(resolve(path))
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`
    )
  }
}

/**
 * A protected PDF's password: the first line of the file named (a password is never typed on the
 * command line, where the shell's history and the process list would keep it). Never printed.
 */
function readPasswordFile(path: string | undefined): string | undefined {
  if (path === undefined) return undefined
  let text: string
  try {
    text = readFileSync(resolve(path), 'utf8')
  } catch (error) {
    throw new UsageError(
      `cannot read the password file ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : ((error as NodeJS.ErrnoException).code ?? 'unreadable')}`
    )
  }
  const password = text.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? ''
  if (password === '') throw new UsageError(`the password file ${path} is empty: put the password on its first line`)
  return password
}

/** --max-size MB: the most a statement file (or one part of a workbook, inflated) may hold, for this run. */
function maxSize(value: string | undefined): number | undefined {
  return value === undefined ? undefined : positiveInt('max-size', value, 512, 1) * 1024 * 1024
}

/** Problems and open questions of a read, each naming its line and column, to stderr. */
function reportRead(parsed: ParsedStatement, file: string): void {
  const where = parsed.label ? `${basename(file)} (${parsed.label})` : basename(file)
  for (const p of parsed.problems.slice(0, 50))
    process.stderr.write(
      `${where}${parsed.pageStarts ? ` ${lineWhere(p.line, parsed.pageStarts)}` : `:${p.line}`}${p.column ? ` [${p.column}]` : ''}: ${p.code}: ${p.message}\n`
    )
  if (parsed.problems.length > 50) process.stderr.write(`${where}: … and ${parsed.problems.length - 50} more problem(s)\n`)
  for (const q of parsed.questions)
    process.stderr.write(`${where}: ${q.message}${q.choices.length ? ` (${q.field}: ${q.choices.join(' | ')})` : ''}\n`)
}

function describeRead(parsed: ParsedStatement): string {
  const parts = [
    rowsInWords(parsed.rows.length),
    parsed.format === 'csv' || parsed.format === 'xlsx' || parsed.format === 'xls' || parsed.format === 'qif'
      ? null
      : parsed.format.toUpperCase(),
    parsed.sheet !== null
      ? `sheet ${parsed.sheet}`
      : parsed.encoding
        ? // Bytes that were not the encoding the file claims are said, never passed over.
          `encoding ${parsed.encoding}${/not UTF-8/.test(parsed.encodingHow ?? '') ? ` (${parsed.encodingHow})` : ''}`
        : null,
    parsed.separator ? `separator ${JSON.stringify(parsed.separator)}` : null,
    parsed.numberForm ? `numbers like ${parsed.numberForm}` : null,
    parsed.dateForm ? `dates ${parsed.dateForm}` : null
  ]
  const columns = Object.entries(parsed.mapping.columns)
    .map(([field, column]) => `${field}=${JSON.stringify(column)}`)
    .join(', ')
  return `${parts.filter(Boolean).join(', ')}; columns: ${columns}${parsed.problems.length ? `; ${parsed.problems.length} row(s) with problems` : ''}`
}

const rowsInWords = (n: number): string => `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`

/** Rows a preview shows. */
const PREVIEW_ROWS = 10

/** What an import will do, line by line: the first rows as read, every line skipped and why, the balances found, the lines that will not be read. */
function describePreview(parsed: ParsedStatement): string {
  const at = (line: number): string => lineWhere(line, parsed.pageStarts).padEnd(parsed.pageStarts ? 20 : 11)
  const out: string[] = [`First ${Math.min(PREVIEW_ROWS, parsed.rows.length)} row(s) as read:`]
  for (const r of parsed.rows.slice(0, PREVIEW_ROWS))
    out.push(
      `  ${at(r.line)} ${r.date}  ${moneyText(r.amountMinor, r.currency).padStart(22)}  ${[r.reference, r.description].filter(Boolean).join(' · ')}`
    )
  out.push(parsed.skipped.length === 0 ? 'No line skipped.' : `Skipped, not transactions (${parsed.skipped.length}):`)
  for (const s of parsed.skipped) out.push(`  ${at(s.line)} ${s.reason}`)
  const proof = parsed.proof
  if (proof) {
    const money = (m: number | null): string => (m === null || proof.currency === null ? 'not stated' : moneyText(m, proof.currency))
    out.push(
      `Balances: opening ${money(proof.openingMinor)}${proof.openingFrom === 'running balance' ? ' (from the running balance)' : ''}, closing ${money(proof.closingMinor)}${proof.closingFrom === 'running balance' ? ' (from the running balance)' : ''}${proof.account ? `, account ${proof.account}` : ''}`
    )
    out.push(`The statement ${proof.complete ? 'is complete' : 'is not complete'}: ${proof.verdict}`)
    for (const b of proof.breaks.slice(0, 20))
      out.push(
        `  ${at(b.line)} running balance ${money(b.foundMinor)} where ${money(b.expectedMinor)} was expected (gap ${money(b.gapMinor)})`
      )
  }
  out.push(
    parsed.problems.length === 0
      ? 'Every line with a date and an amount will be read.'
      : `Lines that will be not read (${parsed.problems.length}), to read by hand or leave out in the session:`
  )
  for (const p of parsed.problems.slice(0, 50)) out.push(`  ${at(p.line)} ${p.message}${p.text ? `  [${p.text}]` : ''}`)
  return `${out.join('\n')}\n`
}

const questionHelp =
  'answer with --currency CUR for the currency, or --mapping FILE ({"dateOrder":"dmy"}, {"defaultCurrency":"NGN"}, {"columns":{"date":"…","amount":"…"}})'

export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...COMMON,
      mapping: { type: 'string' },
      currency: { type: 'string' },
      'same-file': { type: 'string' },
      'same-rows': { type: 'string' },
      preview: { type: 'boolean' },
      'save-preset': { type: 'string' },
      account: { type: 'string' },
      'password-file': { type: 'string' },
      'max-size': { type: 'string' }
    },
    strict: true,
    allowPositionals: true
  })
  const path = positionals[0]
  if (!path || positionals.length > 1) throw new UsageError('import needs one STATEMENT file')
  const sameFile = values['same-file']
  if (sameFile !== undefined && sameFile !== 'use-existing' && sameFile !== 'import-again')
    throw new UsageError('--same-file must be use-existing or import-again')
  const sameRows = values['same-rows']
  if (sameRows !== undefined && sameRows !== 'keep' && sameRows !== 'skip') throw new UsageError('--same-rows must be keep or skip')
  const mapping = readMapping(values.mapping)
  if (values.currency) mapping.defaultCurrency = values.currency.toUpperCase()
  const bytes = readGivenFile(path)
  const password = readPasswordFile(values['password-file'])
  const data = openData(values.db, 'fills')
  const interrupt = new Interrupt('import')
  try {
    const profile = chooseProfile(data, values)
    const service = new ReconService(data.db)
    const progress = new StderrProgress('import')
    progress.phase(`reading ${basename(path)} (${sizeInWords(bytes.length)})`)
    const outcome = await service.importStatement({
      signal: interrupt.signal,
      profileId: profile.id,
      name: basename(path),
      bytes,
      mapping,
      ifSameFile: sameFile,
      ifSameRows: sameRows,
      previewOnly: values.preview === true,
      account: values.account,
      password,
      maxBytes: maxSize(values['max-size'])
    })
    progress.end()
    for (const statement of outcome.statements) reportRead(statement, path)
    if (values['save-preset'] && outcome.parsed.questions.length === 0)
      service.savePreset(values['save-preset'], outcome.parsed.headerSignature, outcome.parsed.mapping)
    return printImport(outcome, values.json === true, path)
  } catch (error) {
    if (interrupt.stoppedBy(error)) return interrupt.cancelled('nothing was stored')
    throw error
  } finally {
    await interrupt.end()
    await data.close()
  }
}

/** What the CLI says of one statement read: its rows, problems, questions, balances and first rows. */
function statementSummary(parsed: ParsedStatement): Record<string, unknown> {
  return {
    format: parsed.format,
    statement: parsed.label,
    account: parsed.account,
    sha256: parsed.sha256,
    rows: parsed.rows.length,
    problems: parsed.problems,
    questions: parsed.questions,
    mapping: parsed.mapping,
    numberForm: parsed.numberForm,
    dateForm: parsed.dateForm,
    skipped: parsed.skipped,
    proof: parsed.proof,
    firstRows: parsed.rows.slice(0, PREVIEW_ROWS).map((r) => ({
      line: r.line,
      date: r.date,
      amount: toMajorString(r.amountMinor, r.currency),
      currency: r.currency,
      reference: r.reference,
      description: r.description
    }))
  }
}

function printImport(outcome: ImportOutcome, json: boolean, path: string): number {
  const parsed = outcome.parsed
  const statements = outcome.statements
  const several = statements.length > 1
  const problems = statements.reduce((n, s) => n + s.problems.length, 0)
  const summary = {
    status: outcome.status,
    fileId: storedFileIds(outcome)[0] ?? null,
    fileIds: storedFileIds(outcome),
    ...statementSummary(parsed),
    presetApplied: outcome.presetApplied,
    sameRows: outcome.status === 'same-rows' ? outcome.sameRows : 0,
    statements: statements.map(statementSummary)
  }
  if (json) process.stdout.write(`${JSON.stringify(summary)}\n`)
  switch (outcome.status) {
    case 'questions':
      process.stderr.write(`ledgerline: ${basename(path)} cannot be read without an answer; ${questionHelp}\n`)
      return 2
    case 'same-file':
      if (!json)
        say(
          `${basename(path)} was imported before (${outcome.existing.importedAt} by ${outcome.existing.importedBy}, file ${outcome.existing.id}); nothing stored. Use --same-file import-again to store it again.\n`
        )
      return 0
    case 'same-rows':
      process.stderr.write(
        `ledgerline: ${outcome.sameRows} row(s) of ${basename(path)} were imported before in another file; choose --same-rows keep or --same-rows skip\n`
      )
      return 2
    case 'preview':
      if (!json)
        say(
          several
            ? `${basename(path)} (${parsed.format}) holds ${statements.length} statements (preview; nothing stored):\n${statements
                .map((s) => `\n== ${s.label} ==\n${describeRead(s)}\n${describePreview(s)}`)
                .join('')}`
            : `${basename(path)}: ${describeRead(parsed)} (preview; nothing stored)\n${describePreview(parsed)}`
        )
      return problems > 0 ? 1 : 0
    case 'imported':
      if (!json)
        say(
          several
            ? `Imported ${basename(path)} (${parsed.format}) as ${statements.length} statements${outcome.skippedSameRows ? `; ${outcome.skippedSameRows} row(s) imported before were left out` : ''}:\n${outcome.files
                .map((f, k) => `  ${f.statement}: file ${f.id}, ${describeRead(statements[k] as ParsedStatement)}\n`)
                .join('')}`
            : `Imported ${basename(path)} as file ${outcome.file.id}: ${describeRead(parsed)}${outcome.presetApplied ? ` (preset "${outcome.presetApplied}")` : ''}${outcome.skippedSameRows ? `; ${outcome.skippedSameRows} row(s) imported before were left out` : ''}\n`
        )
      return problems > 0 ? 1 : 0
  }
}

/**
 * Imports the statement a reconcile is against (one reading of the file for every mapping tried; a
 * statement without currencies is offered the currency of the source's records it names) and says
 * how it was read. Returns only what the rest of the command needs: the statement's rows, a million
 * of them, are no longer held once it returns. Null when the file needs an answer first.
 */
async function importToReconcile(
  service: ReconService,
  asked: {
    profileId: string
    path: string
    bytes: Buffer
    mapping: Partial<StatementMapping>
    account: string | undefined
    password: string | undefined
    maxBytes: number | undefined
    source: ReconSource
    signal: AbortSignal
    json: boolean
  }
): Promise<{ status: ImportOutcome['status']; fileIds: string[]; read: string; fileProblems: number } | null> {
  const { path, mapping } = asked
  const request = {
    profileId: asked.profileId,
    name: basename(path),
    bytes: asked.bytes,
    ifSameFile: 'use-existing',
    ifSameRows: 'keep',
    account: asked.account,
    password: asked.password,
    maxBytes: asked.maxBytes,
    reads: new StatementReads(),
    currencyFrom: asked.source,
    signal: asked.signal
  } as const
  let outcome = await service.importStatement({ ...request, mapping })
  const offered = outcome.parsed.questions.find((q) => q.field === 'defaultCurrency')?.choices[0]
  // A statement without currencies is in the currency of the provider's records it names.
  if (
    outcome.status === 'questions' &&
    outcome.parsed.questions.every((q) => q.field === 'defaultCurrency') &&
    offered &&
    !mapping.defaultCurrency
  )
    outcome = await service.importStatement({ ...request, mapping: { ...mapping, defaultCurrency: offered } })
  // A file imported before is reconciled as it was read then (said so); this reading's questions and problems are not its.
  if (outcome.status === 'same-file') {
    if (!asked.json)
      say(
        `${basename(path)} was imported before (${outcome.existing.importedAt} by ${outcome.existing.importedBy}): that import is used.\n`
      )
  } else for (const statement of outcome.statements) reportRead(statement, path)
  if (outcome.status === 'questions') return null
  const fileIds = storedFileIds(outcome)
  if (fileIds.length === 0) throw new UsageError(`${basename(path)} was not stored (${outcome.status})`)
  // A file imported before is described as that import stored it: this reading may have stopped at a question it answered.
  const read =
    outcome.status === 'same-file'
      ? `${rowsInWords(outcome.existingFiles.reduce((n, f) => n + f.rows, 0))}, as imported before`
      : describeRead(outcome.parsed)
  return { status: outcome.status, fileIds, read, fileProblems: outcome.parsed.problems.length }
}

export async function reconcileCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...COMMON,
      source: { type: 'string' },
      against: { type: 'string' },
      mapping: { type: 'string' },
      currency: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      'time-zone': { type: 'string' },
      'amount-tolerance': { type: 'string' },
      'days-before': { type: 'string' },
      'days-after': { type: 'string' },
      'net-of-fees': { type: 'boolean' },
      'bulk-file': { type: 'string', multiple: true },
      transfer: { type: 'string', multiple: true },
      out: { type: 'string' },
      summary: { type: 'string' },
      xlsx: { type: 'string' },
      pdf: { type: 'string' },
      plain: { type: 'boolean' },
      name: { type: 'string' },
      account: { type: 'string' },
      'password-file': { type: 'string' },
      'max-size': { type: 'string' }
    },
    strict: true,
    allowPositionals: false
  })
  const source = (values.source ?? 'payments') as ReconSource
  if (!RECON_SOURCES.includes(source)) throw new UsageError(`--source must be one of ${RECON_SOURCES.join(', ')}`)
  if (!values.against) throw new UsageError('reconcile needs --against STATEMENT')
  if (!values.out) throw new UsageError('reconcile needs --out REPORT.csv')
  // Every output is checked before the statement is read or a session stored.
  const files = reportFilesAsked(values)
  const { out, summaryFile, xlsxFile, pdfFile } = files
  for (const [name, value] of [
    ['from', values.from],
    ['to', values.to]
  ] as const)
    if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value))
      throw new UsageError(`--${name} must be a day YYYY-MM-DD (got "${value}")`)
  const settings: Partial<ReconSettings> = { netOfFees: values['net-of-fees'] === true }
  if (values['amount-tolerance'] !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(values['amount-tolerance']))
      throw new UsageError(`--amount-tolerance must be a plain amount such as 0.50 (got "${values['amount-tolerance']}")`)
    settings.amountTolerance = values['amount-tolerance']
  }
  if (values['days-before'] !== undefined) settings.daysBefore = positiveInt('days-before', values['days-before'], 2)
  if (values['days-after'] !== undefined) settings.daysAfter = positiveInt('days-after', values['days-after'], 5)
  const zone = values['time-zone']
  if (zone !== undefined && !isTimeZone(zone))
    throw new UsageError(`--time-zone: "${zone}" is not a time zone name; use one such as Africa/Lagos, Europe/London or UTC`)
  const mapping = readMapping(values.mapping)
  if (values.currency) mapping.defaultCurrency = values.currency.toUpperCase()
  const bytes = readGivenFile(values.against)
  const password = readPasswordFile(values['password-file'])
  const data = openData(values.db, 'fills')
  const interrupt = new Interrupt('reconcile')
  // What a Ctrl+C leaves, as the command comes through its steps: each is whole or not there.
  let kept = (): string => 'nothing was stored'
  try {
    const profile = chooseProfile(data, values)
    const service = new ReconService(data.db)
    const progress = new StderrProgress('reconcile')
    progress.phase(`reading ${basename(values.against)} (${sizeInWords(bytes.length)})`)
    const statement = await importToReconcile(service, {
      profileId: profile.id,
      path: values.against,
      bytes,
      mapping,
      account: values.account,
      password,
      maxBytes: maxSize(values['max-size']),
      source,
      signal: interrupt.signal,
      json: values.json === true
    })
    if (statement === null) {
      progress.end()
      process.stderr.write(`ledgerline: ${basename(values.against)} cannot be read without an answer; ${questionHelp}\n`)
      return 2
    }
    const { fileIds } = statement
    const imported = basename(values.against)
    if (statement.status === 'imported')
      kept = () => `${imported} is imported (${fileIds.length === 1 ? 'file' : 'files'} ${fileIds.join(', ')}), whole; no session was made`
    // The period defaults to the days of the lines as stored (read and, where their day was read, not read).
    const days = fileIds.map((id) => service.lineDays(id)).filter((d) => d !== null)
    const from = values.from ?? days.map((d) => d.from).sort()[0]
    const to = values.to ?? days.map((d) => d.to).sort()[days.length - 1]
    if (!from || !to)
      throw new UsageError(`${basename(values.against)} has no rows to reconcile; give --from and --to to reconcile an empty period`)
    // The period's days are the business's: the profile's time zone unless the command names one.
    const timeZone = values['time-zone'] ?? profile.timeZone
    // Created and run as one transaction: a reconcile cancelled or killed midway (Ctrl+C, kill -9) leaves no session half-made.
    const matching = `matching against ${source}, ${from} to ${to}`
    progress.phase(matching)
    const run = await service.createAndRun(
      {
        profileId: profile.id,
        name: values.name ?? `${basename(values.against)} against ${source}, ${from} to ${to}`,
        source,
        filter: {
          ...(values['bulk-file'] ? { bulkFileIds: values['bulk-file'] } : {}),
          ...(values.transfer ? { references: values.transfer } : {})
        },
        from,
        to,
        timeZone,
        settings,
        fileIds,
        account: values.account
      },
      {
        signal: interrupt.signal,
        onProgress: (step, done, total) => {
          if (step !== 'storing') return progress.tick(step, done, total)
          if (done === 0) progress.phase('storing the items and totals')
          progress.tick('items', done, total)
        }
      }
    )
    const session = run.session
    const written: string[] = []
    kept = () =>
      `session ${session.id} is made and run, whole, and kept; ${reportsKept(written)} (ledgerline report --session ${session.id} writes them)`
    progress.phase('writing the reports')
    const summary = await writeReports(service, session.id, profile, files, { progress, signal: interrupt.signal }, written)
    progress.end()
    if (values.json)
      process.stdout.write(
        `${JSON.stringify({ ...summary, fileProblems: statement.fileProblems, leftOutFailed: run.leftOutFailed, leftOutOutsidePeriod: run.leftOutOutsidePeriod, unreadable: run.unreadable, notes: run.notes })}\n`
      )
    else {
      say(
        `Reconciled ${basename(values.against)} (${statement.read}) against ${source} of "${profile.name}" (${profile.mode.toUpperCase()}), ${from} to ${to} in ${timeZone}\n`
      )
      say(describeSummary(summary))
      say(chainLines(session.account, session.chain, '  '))
      if (run.leftOutFailed)
        say(`  ${run.leftOutFailed} failed or cancelled provider record(s) with nothing in the file were left out (no money moved)\n`)
      if (run.leftOutOutsidePeriod)
        say(
          `  ${run.leftOutOutsidePeriod} provider record(s) from just outside the period with nothing in the file were left out (another period's)\n`
        )
      for (const note of run.notes) say(`  note: ${note}\n`)
      say(
        `Report: ${out}${summaryFile ? `, summary: ${summaryFile}` : ''}${values.plain ? PLAIN_NOTE : ''}${xlsxFile ? `, workbook: ${xlsxFile}` : ''}${pdfFile ? `, bank reconciliation statement: ${pdfFile}` : ''} (session ${session.id})\n`
      )
      say(`${summary.verdict.headline}\n`)
    }
    // What the exit code says is the verdict's, as every other output's is.
    return summary.verdict.exitCode
  } catch (error) {
    if (interrupt.stoppedBy(error)) return interrupt.cancelled(kept())
    throw error
  } finally {
    await interrupt.end()
    await data.close()
  }
}

/** A session's summary as the CLI says it: counts, each currency's totals, fees, ages and verdict, the bank reconciliation, each statement's check. */
export function describeSummary(summary: ReconSummary): string {
  const out: string[] = []
  for (const [outcomeName, count] of Object.entries(summary.counts))
    if (count > 0) out.push(`  ${outcomeName.padEnd(22)} ${count.toLocaleString('en-US')}`)
  out.push(`  Expected amounts: ${feeBasisInWords(summary.basis)}`)
  for (const w of summary.verdict.warnings) out.push(`  WARNING: ${w}`)
  for (const c of summary.currencies) {
    const v = summary.verdict.currencies.find((x) => x.currency === c.currency)
    out.push(
      `  ${c.currency}: provider ${moneyText(c.providerTotalMinor, c.currency)}, file ${moneyText(c.fileTotalMinor, c.currency)}, difference ${moneyText(c.fileTotalMinor - c.providerTotalMinor, c.currency)}; accounted for: ${v?.accountedFor ? 'yes' : 'NO'}, nothing left: ${v?.nothingLeft ? 'yes' : 'NO'}`
    )
    const carried = carriedInWords(c)
    if (carried !== null) out.push(`    ${carried[0]?.toUpperCase()}${carried.slice(1)}`)
    for (const why of v?.why ?? []) out.push(`    - ${why}`)
    const fees = (['matched', 'pending_at_provider', 'only_in_provider'] as const)
      .filter((o) => c.outcomes[o].feesMinor !== 0)
      .map(
        (o) =>
          `${o === 'matched' ? 'matched' : o === 'pending_at_provider' ? 'pending' : 'not on the statement'} ${moneyText(c.outcomes[o].feesMinor, c.currency)}`
      )
    if (fees.length > 0) out.push(`    The provider's fees: ${fees.join(', ')}`)
    for (const [kind, { label }] of Object.entries(AGEING_KINDS) as [AgeingKind, (typeof AGEING_KINDS)[AgeingKind]][]) {
      const buckets = c.ageing[kind]
        .map((b, k) =>
          b.count === 0
            ? null
            : `${AGE_BUCKETS[k]?.label} ${b.count.toLocaleString('en-US')} (${agedAmountInWords(kind, moneyText(b.minor, c.currency))})`
        )
        .filter((b) => b !== null)
      if (buckets.length > 0) out.push(`    ${label[0]?.toUpperCase()}${label.slice(1)}, by age at the period's end: ${buckets.join(', ')}`)
    }
  }
  for (const rec of bankReconciliations(summary)) {
    out.push(`  Bank reconciliation, ${rec.currency}:`)
    for (const line of rec.lines)
      out.push(
        `    ${`${line.label}${line.count === null ? '' : ` (${line.count.toLocaleString('en-US')})`}`.padEnd(78)} ${line.amountMinor === null ? (line.kind === 'memo' ? '' : 'not stated') : moneyText(line.amountMinor, rec.currency)}`
      )
  }
  for (const s of summary.statements) {
    out.push(
      `  statement ${s.file}${s.account ? ` (account ${s.account})` : ''}: ${s.complete ? 'complete' : 'NOT complete'}, ${s.verdict}`
    )
    const money = (value: string): string => (s.currency ? moneyText(parseMajor(value, s.currency), s.currency) : value)
    for (const b of s.balanceBreaks)
      out.push(
        `    ${lineWhere(b.line, s.pageStarts)}: running balance ${money(b.found)} where ${money(b.expected)} was expected (gap ${money(b.gap)}: a line missing or doubled)`
      )
    for (const l of s.notRead.slice(0, 20)) out.push(`    ${lineWhere(l.line, s.pageStarts)} not read: ${l.reason}`)
    if (s.notRead.length > 20) out.push(`    … and ${s.notRead.length - 20} more line(s) not read`)
  }
  return `${out.join('\n')}\n`
}

/** The reports asked for (--out, --summary, --xlsx, --pdf, --plain), each path checked before anything is read or stored. */
interface ReportFiles {
  out?: string | undefined
  summaryFile?: string | undefined
  xlsxFile?: string | undefined
  pdfFile?: string | undefined
  plain: boolean
}

function reportFilesAsked(values: { out?: string; summary?: string; xlsx?: string; pdf?: string; plain?: boolean }): ReportFiles {
  const asked = (option: string, value: string | undefined): string | undefined =>
    value === undefined ? undefined : outputPath(option, value)
  return {
    out: asked('out', values.out),
    summaryFile: asked('summary', values.summary),
    xlsxFile: asked('xlsx', values.xlsx),
    pdfFile: asked('pdf', values.pdf),
    plain: values.plain === true
  }
}

/**
 * Writes a session's reports (items CSV, and the summary CSV, workbook and PDF when asked) as it
 * stands, the items CSV's rows counted on stderr; returns its summary. `written`: each report's file
 * as it is written whole (a Ctrl+C leaves those, and no part of any other).
 */
async function writeReports(
  service: ReconService,
  sessionId: string,
  profile: { name: string; mode: string },
  files: ReportFiles,
  heard: { progress: StderrProgress; signal: AbortSignal },
  written: string[]
): Promise<ReconSummary> {
  const pausing: PausingWrite = { signal: heard.signal, onRows: (done, total) => heard.progress.tick('rows', done, total) }
  // The reports people read (the PDF, the workbook's Reconciliation sheet) in the user's locale; the CSVs keep ISO days.
  const input = { ...service.reportInput(sessionId, { name: profile.name, mode: profile.mode }), locale: cliLocale() }
  const style = files.plain ? 'plain' : 'excel'
  // The items are read once: the summary is summed from them as the report writes them.
  const summary = files.out ? (await writeItemsCsv(files.out, input, style, pausing)).summary : buildSummary(input)
  if (files.out) written.push(files.out)
  // Each report is written under a temporary name and renamed once whole; a Ctrl+C is heard between them.
  const others: [string | undefined, (file: string) => Promise<void>][] = [
    [files.summaryFile, (file) => writeSummaryCsv(file, summary, input, style)],
    [files.xlsxFile, (file) => writeXlsx(file, summary, input)],
    [files.pdfFile, (file) => writeBankRecPdf(file, bankRecStatement(summary, input))]
  ]
  for (const [file, write] of others) {
    if (file === undefined) continue
    pausing.signal.throwIfAborted()
    await write(file)
    written.push(file)
  }
  return summary
}

/** What a Ctrl+C while writing reports leaves: those written whole, and no part of any other. */
const reportsKept = (written: readonly string[]): string =>
  written.length === 0 ? 'no report was written' : `written whole before it: ${written.join(', ')}; no other report was written`

/** ledgerline report --session ID [--out FILE] [--summary FILE] [--xlsx FILE] [--pdf FILE] [--plain] [--json]: the reports of any session, as it stands. */
export async function reportCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      db: COMMON.db,
      json: COMMON.json,
      session: { type: 'string' },
      out: { type: 'string' },
      summary: { type: 'string' },
      xlsx: { type: 'string' },
      pdf: { type: 'string' },
      plain: { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  if (!values.session) throw new UsageError('give the session with --session ID (ledgerline sessions lists them)')
  if (values.out === undefined && values.summary === undefined && values.xlsx === undefined && values.pdf === undefined)
    throw new UsageError('report needs a file to write: --out REPORT.csv, --summary FILE, --xlsx FILE or --pdf FILE')
  const files = reportFilesAsked(values)
  const { out, summaryFile, xlsxFile, pdfFile } = files
  const data = openData(values.db, 'reads')
  const interrupt = new Interrupt('report')
  const reported: string[] = []
  try {
    const service = new ReconService(data.db)
    const session = service.session(values.session)
    if (!session.lastRunAt) throw new AppError('not_run', `The session "${session.name}" has not been run yet: it has no items to report.`)
    const profile = data.profiles.get(session.profileId)
    const progress = new StderrProgress('report')
    progress.phase(`writing the reports of "${session.name}"`)
    const summary = await writeReports(service, session.id, profile, files, { progress, signal: interrupt.signal }, reported)
    progress.end()
    if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`)
    else {
      say(
        `Session "${session.name}" (${session.id}), ${session.from} to ${session.to}:\n${describeSummary(summary)}${chainLines(session.account, session.chain, '  ')}`
      )
      const written = [
        out && `report: ${out}`,
        summaryFile && `summary: ${summaryFile}`,
        xlsxFile && `workbook: ${xlsxFile}`,
        pdfFile && `bank reconciliation statement: ${pdfFile}`
      ].filter(Boolean)
      say(`Written: ${written.join(', ')}${values.plain && (out || summaryFile) ? PLAIN_NOTE : ''}\n${summary.verdict.headline}\n`)
    }
    return summary.verdict.exitCode
  } catch (error) {
    if (interrupt.stoppedBy(error)) return interrupt.cancelled(reportsKept(reported))
    throw error
  } finally {
    await interrupt.end()
    await data.close()
  }
}

export async function auditCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args
  if (action !== 'verify') throw new UsageError(`audit needs verify (got "${action ?? ''}")`)
  const { values } = parseArgs({
    args: rest,
    options: { db: COMMON.db, json: COMMON.json, session: { type: 'string' }, evidence: { type: 'string' }, head: { type: 'string' } },
    strict: true,
    allowPositionals: false
  })
  if (values.head !== undefined && !/^[0-9a-f]{64}$/.test(values.head))
    throw new UsageError(`--head is the 64-character hash kept with the sign-off (got "${values.head}")`)
  if (values.evidence !== undefined) return verifyPack(values.evidence, values.json === true, values.head)
  const data = openData(values.db, 'reads')
  try {
    const report = verifyAudit(data.db, values.session)
    if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`)
    else if (report.ok && report.sessions === 0) say('This cache holds no reconciliation session: there is no audit trail to check.\n')
    else if (report.ok) say(`Audit trail intact: ${report.sessions} session(s), ${report.events} event(s), every hash checked.\n`)
    else {
      for (const p of report.problems) say(`session ${p.sessionId}${p.seq === null ? '' : `, event ${p.seq}`}: ${p.message}\n`)
      process.stderr.write(`ledgerline: the audit trail was changed: ${report.problems.length} problem(s)\n`)
    }
    return report.ok ? 0 : 1
  } finally {
    await data.close()
  }
}

/** audit verify --evidence PACK.zip: every file, statement and event of a pack checked offline, with no cache. */
async function verifyPack(path: string, json: boolean, head: string | undefined): Promise<number> {
  const report = await verifyEvidencePack(readGivenFile(path))
  // A pack rebuilt whole (chain, manifest and all) checks intact by itself: only the head kept with the sign-off tells it apart.
  if (head !== undefined && report.chainHead !== head)
    report.problems.push({
      what: 'audit-trail.json',
      message: `its chain ends in ${report.chainHead ?? 'nothing'}, not the ${head} kept with the sign-off: this is not the pack that was signed off`
    })
  report.ok = report.problems.length === 0
  if (json) process.stdout.write(`${JSON.stringify(report)}\n`)
  else if (report.ok)
    say(`Evidence pack intact: ${report.files} files and ${report.events} event(s) checked; its audit trail ends in ${report.chainHead}.\n`)
  else {
    for (const p of report.problems) say(`${p.what}: ${p.message}\n`)
    process.stderr.write(`ledgerline: the evidence pack does not match what was written: ${report.problems.length} problem(s)\n`)
  }
  return report.ok ? 0 : 1
}
