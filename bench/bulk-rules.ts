// The bulk rules on the 100,000-row payout file against papaparse parsing it alone, in its own process as the app's build compiles it; prints one JSON line.
import Papa from 'papaparse'
import { validateBulkText } from '../src/shared/bulk/validate'
import { banks, payoutFile } from './bulk-file'
import { median } from './stats'

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
// Taken in turns, so both sides run under the same heap and collector (nine of one after nine of the other would not).
const RUNS = 15
const times: { parse: number[]; validate: number[] } = { parse: [], validate: [] }
for (let i = 0; i < RUNS; i++) {
  for (const [side, run] of [
    ['parse', parse],
    ['validate', validate]
  ] as const) {
    const t = performance.now()
    run()
    times[side].push(performance.now() - t)
  }
}
// The ratio of each pair taken back to back, then their median: a slow stretch of the machine
// (another process, the clock speed) then slows both sides of a pair, not one side's median.
const ratio = median(times.validate.map((ms, i) => ms / (times.parse[i] as number)))
console.log(
  JSON.stringify({ megabytes: text.length / 1048576, baselineMs: median(times.parse), rulesMs: median(times.validate), ratio, errors })
)
