// Reads vitest's JSON report(s) and prints the one totals line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs'

let passed = 0
let failed = 0
let skipped = 0
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    // The run died before reporting: count it as a failure rather than as nothing.
    failed += 1
    continue
  }
  const report = JSON.parse(readFileSync(file, 'utf8'))
  passed += report.numPassedTests ?? 0
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  const failedTests = report.numFailedTests ?? 0
  // A file that fails to load has no failed test but fails the run: count its suites.
  failed += failedTests > 0 || report.success ? failedTests : Math.max(report.numFailedTestSuites ?? 0, 1)
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
