// The Sandbox from the command line: run the simulator on a port, write one of its sample statements, or its generated year.
import { writeSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { writeFileSafely } from '../../main/files/safe-file'
import { sandboxSeed } from '../../sandbox/seed'
import { startSandbox } from '../../sandbox/server'
import { sampleStatement } from '../../sandbox/statement'
import { sampleStatementFile } from '../../sandbox/statement-formats'
import { lineWhere, SAMPLE_FORMATS, type SampleFormat } from '../../shared/reconcile'
import { systemTimeZone } from '../../shared/time'
import { MAX_SEED, outputPath, positiveInt, say, UsageError } from '../common'
import { sandboxYearCommand } from './sandbox-year'

async function sandboxStatementCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      seed: { type: 'string' },
      payments: { type: 'string' },
      mode: { type: 'string' },
      'time-zone': { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  if (!values.out) throw new UsageError('sandbox statement needs --out FILE')
  const format = (values.format ?? 'csv') as SampleFormat
  if (!SAMPLE_FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${SAMPLE_FORMATS.join(', ')} (got "${values.format}")`)
  const mode = values.mode ?? 'test'
  if (mode !== 'test' && mode !== 'live') throw new UsageError(`--mode must be test or live (got "${mode}")`)
  const timeZone = values['time-zone'] ?? systemTimeZone()
  const seed = sandboxSeed({
    seed: positiveInt('seed', values.seed, 1, 0, MAX_SEED),
    payments: positiveInt('payments', values.payments, 5_000)
  })
  const statement = sampleStatement(seed, { timeZone, mode })
  const out = outputPath('out', values.out)
  const file = sampleStatementFile(statement, format)
  await writeFileSafely(out, (fd) => {
    writeSync(fd, file.bytes)
  })
  const { day, currency, lines: count, netOfFees } = statement
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ file: out, format, timeZone, day, currency, lines: count, netOfFees, differences: file.differences, ...(file.pageStarts ? { pageStarts: file.pageStarts } : {}) })}\n`
    )
    return 0
  }
  const lines = [
    `Wrote ${out} (${format}): ${statement.lines} lines for ${statement.day} (${statement.currency}, days in ${timeZone}), with these differences on purpose:`,
    ...file.differences.map(
      (d) =>
        `  ${(d.line === null ? 'not on it' : lineWhere(d.line, file.pageStarts)).padEnd(file.pageStarts ? 20 : 10)} ${d.kind.padEnd(12)} ${d.references.length > 3 ? `${d.references.slice(0, 3).join(', ')} and ${d.references.length - 3} more` : d.references.join(', ') || '-'}: ${d.expected}`
    ),
    'Reconcile it against a Sandbox profile synced from the same seed (credits are net of fees, which the matching finds itself):',
    `  ledgerline reconcile --source payments --against ${values.out} --out report.csv`
  ]
  say(`${lines.join('\n')}\n`)
  return 0
}

export async function sandboxCommand(args: string[]): Promise<number> {
  if (args[0] === 'statement') return sandboxStatementCommand(args.slice(1))
  if (args[0] === 'year') return sandboxYearCommand(args.slice(1))
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      payments: { type: 'string' },
      'no-rate-limits': { type: 'boolean' },
      'strict-spec': { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  const port = positiveInt('port', values.port, 0)
  if (port > 65535) throw new UsageError(`--port must be at most 65535 (got ${port})`)
  const sandbox = await startSandbox({
    port,
    seed: positiveInt('seed', values.seed, 1, 0, MAX_SEED),
    payments: positiveInt('payments', values.payments, 5_000),
    rateLimits: !values['no-rate-limits'],
    strictSpec: values['strict-spec'] === true
  })
  process.stdout.write(
    `${JSON.stringify({ baseUrl: sandbox.baseUrl, testKey: sandbox.keys.test, liveKey: sandbox.keys.live, controlToken: sandbox.controlToken, bulkFileIds: sandbox.bulkFileIds, strictSpec: sandbox.strictSpec })}\n`
  )
  await new Promise<void>((done) => {
    process.once('SIGINT', () => done())
    process.once('SIGTERM', () => done())
  })
  await sandbox.close()
  return 0
}
