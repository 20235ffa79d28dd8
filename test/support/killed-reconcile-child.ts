// A reconcile that is killed (SIGKILL, as kill -9 does) at a point the test names: inside the transaction that creates and runs the session, or halfway through writing its report. Used by test/reconcile/killed.test.ts.
import { writeSync } from 'node:fs'
import { writeFileSafely } from '../../src/main/files/safe-file'
import { SessionItems } from '../../src/main/reconcile/items'
import { scenarioService } from './recon-session'

async function main(): Promise<void> {
  const [where, cache, report] = process.argv.slice(2) as ['run' | 'report', string, string]
  const service = scenarioService([{ n: 1, amount: 1000, day: '2026-10-29' }], cache)
  const imported = await service.importStatement({
    profileId: 'test',
    name: 'oct.csv',
    bytes: Buffer.from('Date,Reference,Amount\n29/10/2026,PAY-0001,"1,000.00"\n30/10/2026,,-52.50\n'),
    mapping: { defaultCurrency: 'NGN' }
  })
  if (imported.status !== 'imported') throw new Error(imported.status)
  if (where === 'run') {
    // Killed once the items are written, before the run's totals and event are: inside the one transaction.
    SessionItems.prototype.storeTotals = () => {
      process.kill(process.pid, 'SIGKILL')
    }
  }
  await service.createAndRun(
    {
      profileId: 'test',
      name: 'October',
      source: 'payments',
      from: '2026-10-29',
      to: '2026-10-30',
      timeZone: 'UTC',
      fileIds: [imported.file.id]
    },
    { signal: new AbortController().signal }
  )
  await writeFileSafely(report, (fd) => {
    writeSync(fd, 'outcome,difference\n'.repeat(1000))
    if (where === 'report') process.kill(process.pid, 'SIGKILL')
  })
}

void main()
