// The headless `ledgerline` CLI over the same services the app uses; every failure is one line and a non-zero exit.
import { parseArgs } from 'node:util'
import { startSandbox } from '../main/sandbox/server'

const USAGE = `Usage: ledgerline <command> [options]

Commands:
  sandbox [--port N] [--seed N] [--payments N] [--no-rate-limits]
      Start the local Sandbox simulator of the payments API. Prints one JSON line
      with baseUrl, testKey and liveKey, then serves until stopped (Ctrl+C).
  help
      Show this text.

Example:
  npx ledgerline sandbox --port 8080
`

/** Thrown for anything the user typed wrong: printed as one line, exit code 2. */
class UsageError extends Error {}

function positiveInt(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a whole number${min > 0 ? ` of at least ${min}` : ''} (got "${value}")`)
  }
  return Number(value)
}

async function sandboxCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      payments: { type: 'string' },
      'no-rate-limits': { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  const port = positiveInt('port', values.port, 0)
  if (port > 65535) throw new UsageError(`--port must be at most 65535 (got ${port})`)
  const sandbox = await startSandbox({
    port,
    seed: positiveInt('seed', values.seed, 1),
    payments: positiveInt('payments', values.payments, 5_000),
    rateLimits: !values['no-rate-limits']
  })
  process.stdout.write(
    `${JSON.stringify({ baseUrl: sandbox.baseUrl, testKey: sandbox.keys.test, liveKey: sandbox.keys.live, bulkFileIds: sandbox.bulkFileIds })}\n`
  )
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await sandbox.close()
  return 0
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case 'sandbox':
        return await sandboxCommand(rest)
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE)
        return command === undefined ? 2 : 0
      default:
        throw new UsageError(`unknown command "${command}" (try: ledgerline help)`)
    }
  } catch (error) {
    const usage = error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`ledgerline: ${message.split('\n')[0]}\n`)
    return usage ? 2 : 1
  }
}
