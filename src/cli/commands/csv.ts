// `ledgerline csv validate`: the builders' rules on a bulk transfer or plan file, optionally the provider's own validation too; exit 0 clean, 1 errors, 2 unreadable.
import { readFileSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BULK_KINDS, type BulkKind, type BulkProblem } from '../../shared/bulk/problems'
import { validateBulkBytes, type BulkContext, type BulkReport } from '../../shared/bulk/validate'
import { providerCsv } from '../../shared/bulk/write'
import type { SentFile } from '../../shared/ipc/bulk'
import { bulkContext, BulkService } from '../../main/bulk/service'
import { apiKeyFromEnv, chooseProfile, cliClients, COMMON, openData, say, type Opened, UsageError } from '../common'

/** Problems that mean the file is not a CSV text at all: exit 2, as for a file that cannot be opened. */
const UNREADABLE = new Set(['not_csv'])

const plain = (p: BulkProblem): { row: number | null; column: string | null; code: string; message: string } => ({
  row: p.row,
  column: p.column,
  code: p.code,
  message: p.message
})

function describe(p: BulkProblem): string {
  const where = [p.row !== null ? `row ${p.row}` : 'file', p.column].filter(Boolean).join(', ')
  return `  ${where}: ${p.code}: ${p.message}`
}

export async function csvCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args
  if (action !== 'validate') throw new UsageError(`csv needs an action: validate (got ${action === undefined ? 'nothing' : `"${action}"`})`)
  const { values, positionals } = parseArgs({
    args: rest,
    options: { ...COMMON, kind: { type: 'string' }, remote: { type: 'boolean' } },
    allowPositionals: true,
    strict: true
  })
  const kind = values.kind as BulkKind | undefined
  if (!kind || !BULK_KINDS.includes(kind)) throw new UsageError(`--kind must be ${BULK_KINDS.join(' or ')}`)
  if (positionals.length !== 1) throw new UsageError('csv validate needs exactly one FILE')
  if (values.remote && kind === 'plans')
    throw new UsageError(
      'the API has no validation call for plan files (uploading one creates the plans); check it locally, then upload it from the app'
    )
  const path = positionals[0] as string
  let bytes: Uint8Array
  try {
    bytes = readFileSync(resolve(path))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    process.stderr.write(
      `ledgerline: cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}\n`
    )
    return 2
  }

  const useCache = values.remote || values.profile !== undefined || values.db !== undefined || values['base-url'] !== undefined
  const data: Opened | null = useCache ? openData(values.db, 'reads') : null
  try {
    const profile = data ? chooseProfile(data, values) : null
    const context: BulkContext = data && profile ? bulkContext(data.db, profile.id) : {}
    const { report, table } = validateBulkBytes(kind, bytes, context)
    let remote: SentFile | null = null
    if (values.remote && report.valid && data && profile) {
      const service = new BulkService(data.db)
      const clients = cliClients()
      try {
        remote = await service.validateTransfers(
          profile.id,
          await clients.for(profile, apiKeyFromEnv()),
          { report, table, content: providerCsv(kind, table.rows) },
          basename(path),
          'json'
        )
      } finally {
        await clients.close()
      }
    }
    const remoteErrors = remote
      ? [
          ...(remote.error
            ? [{ row: null, column: null, code: remote.error.code, message: remote.error.message, severity: 'error' as const }]
            : []),
          ...remote.problems
        ]
      : []
    const valid = report.valid && remoteErrors.length === 0
    if (values.json) process.stdout.write(JSON.stringify(jsonReport(report, valid, remote, remoteErrors)) + '\n')
    else writeHuman(basename(path), report, remote, remoteErrors, Boolean(values.remote), context)
    if (report.errors.some((p) => UNREADABLE.has(p.code))) return 2
    return valid ? 0 : 1
  } finally {
    await data?.close()
  }
}

function jsonReport(report: BulkReport, valid: boolean, remote: SentFile | null, remoteErrors: BulkProblem[]): unknown {
  return {
    valid,
    rows: report.rows,
    errors: report.errors.map(plain),
    warnings: report.warnings.map(plain),
    totals: report.totals.map((t) => ({ currency: t.currency, rows: t.rows, amount: t.amount, minor: t.minor })),
    ...(remote
      ? {
          remote: { accepted: remote.accepted, totalRequests: remote.totalRequests, errors: remoteErrors.map(plain), sha256: remote.sha256 }
        }
      : {})
  }
}

function writeHuman(
  name: string,
  report: BulkReport,
  remote: SentFile | null,
  remoteErrors: BulkProblem[],
  askedRemote: boolean,
  context: BulkContext
): void {
  const count = (n: number, what: string): string => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`
  const out: string[] = [
    `${name}: ${count(report.rows, 'row')}, ${count(report.errors.length, 'error')}, ${count(report.warnings.length, 'warning')}`
  ]
  const shown = 200
  for (const p of report.errors.slice(0, shown)) out.push(describe(p))
  if (report.errors.length > shown) out.push(`  … and ${report.errors.length - shown} more error(s) (use --json for all)`)
  if (report.warnings.length > 0) out.push('Warnings:')
  for (const p of report.warnings.slice(0, shown)) out.push(describe(p))
  if (report.warnings.length > shown) out.push(`  … and ${report.warnings.length - shown} more warning(s)`)
  for (const t of report.totals) out.push(`Total ${t.currency} ${t.amount} (${count(t.rows, 'row')})`)
  if (!context.banks && report.warnings.some((p) => p.code === 'bank_list_missing'))
    out.push("Give --profile NAME to check bank codes against that profile's cached bank list.")
  if (remote) {
    out.push(
      remote.error
        ? `The API refused the file: ${remote.error.message} [${remote.error.code}]`
        : remoteErrors.length === 0
          ? `The API accepted all ${count(remote.totalRequests ?? report.rows, 'row')}.`
          : `The API found ${count(remoteErrors.length, 'problem')}:`
    )
    if (!remote.error) for (const p of remoteErrors) out.push(describe(p))
  } else if (askedRemote) out.push('Not sent to the API: fix the errors first.')
  say(out.join('\n') + '\n')
}
