// The bulk rules on the 100,000-row payout file against papaparse parsing it alone, in its own process as the app's build compiles it; prints one JSON line.
import Papa from 'papaparse'
import { validateBulkText } from '../src/shared/bulk/validate'
import { banks, payoutFile } from './bulk-file'

function median(run: () => void, times: number): number {
  const ms: number[] = []
  for (let i = 0; i < times; i++) {
    const t = performance.now()
    run()
    ms.push(performance.now() - t)
  }
  return ms.sort((a, b) => a - b)[Math.floor(times / 2)] as number
}

const text = payoutFile()
let errors = 0
const validate = (): void => {
  errors = validateBulkText('transfers', text, { banks }).report.errors.length
}
const parse = (): void => {
  Papa.parse<string[]>(text, { delimiter: ',', skipEmptyLines: false })
}
// Warm-up: both sides compiled and their caches filled before anything is timed.
for (let i = 0; i < 3; i++) {
  validate()
  parse()
}
const baselineMs = median(parse, 9)
const rulesMs = median(validate, 9)
console.log(JSON.stringify({ megabytes: text.length / 1048576, baselineMs, rulesMs, errors }))
