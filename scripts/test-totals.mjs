// Reads vitest's JSON report(s) and prints the one totals line CI reads: "N passed, N failed". Green means what it says:
// a skipped test, a test file that ran no test, a run that died before reporting, and a run vitest failed with no failed
// test (an unhandled error, a failed hook) each count as failed, and each is named on a line before the totals.
//
// Each Vitest project must also run at least the test files and tests its floor says, so a project that quietly ran less
// (a narrowed include, a deleted file) is red, not a smaller green.
//
//   node scripts/test-totals.mjs [--exit-code N] [--tests DIR] [--floors FLOORS.json --serial SERIAL.json] REPORT.json...
//
// --exit-code: vitest's own exit code; --tests: the folder whose *.test.ts files must each have run a test (default test);
// --floors: each project's fewest files and tests; --serial: the globs of the "processes" project (the rest is
// "in-process"), as vitest.config.mts reads them.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import picomatch from 'picomatch'

const args = process.argv.slice(2)
let exitCode = 0
let testsDir = 'test'
let floorsFile = null
let serialFile = null
const reports = []
for (let k = 0; k < args.length; k++) {
  if (args[k] === '--exit-code') exitCode = Number(args[++k])
  else if (args[k] === '--tests') testsDir = args[++k]
  else if (args[k] === '--floors') floorsFile = args[++k]
  else if (args[k] === '--serial') serialFile = args[++k]
  else reports.push(args[k])
}

/** Every *.test.ts file under a folder, relative to the working folder. */
function testFiles(dir) {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...testFiles(path))
    else if (entry.name.endsWith('.test.ts')) out.push(relative(process.cwd(), resolve(path)))
  }
  return out
}

let passed = 0
let failed = 0
const why = []
/** Test files by how many of their tests ran (passed or failed). */
const ran = new Map()
for (const file of reports) {
  if (!existsSync(file)) {
    failed += 1
    why.push(`${file}: no report; the run died before reporting`)
    continue
  }
  const report = JSON.parse(readFileSync(file, 'utf8'))
  passed += report.numPassedTests ?? 0
  const failedTests = report.numFailedTests ?? 0
  // A file that fails to load has no failed test but fails the run: count its suites.
  failed += failedTests > 0 || report.success ? failedTests : Math.max(report.numFailedTestSuites ?? 0, 1)
  for (const suite of report.testResults ?? []) {
    const name = relative(process.cwd(), resolve(suite.name))
    let count = ran.get(name) ?? 0
    for (const test of suite.assertionResults ?? []) {
      if (test.status === 'passed' || test.status === 'failed') count++
      else {
        // Skipped, todo, or left out by a committed .only: it checked nothing.
        failed += 1
        why.push(`${name}: "${test.fullName ?? test.title}" did not run (${test.status})`)
      }
    }
    ran.set(name, count)
  }
}
if (existsSync(testsDir))
  for (const file of testFiles(testsDir))
    if (!ran.get(file)) {
      failed += 1
      why.push(`${file}: ran no test (a project that did not include it, or a file whose tests were all left out)`)
    }
if (exitCode !== 0 && failed === 0) {
  failed = 1
  why.push(`the test run exited ${exitCode} with no failed test: an unhandled error or a failed hook (see the log above)`)
}
const notes = []
if (floorsFile) {
  const floors = existsSync(floorsFile) ? JSON.parse(readFileSync(floorsFile, 'utf8')) : null
  const serial = serialFile && existsSync(serialFile) ? picomatch(JSON.parse(readFileSync(serialFile, 'utf8'))) : null
  if (!floors || !serial) {
    failed += 1
    why.push(`no floors to hold the run to: ${!floors ? floorsFile : (serialFile ?? '--serial')} is missing`)
  } else {
    const counts = { 'in-process': { files: 0, tests: 0 }, processes: { files: 0, tests: 0 } }
    for (const [file, tests] of ran) {
      const project = counts[serial(file.split('\\').join('/')) ? 'processes' : 'in-process']
      if (tests > 0) project.files += 1
      project.tests += tests
    }
    for (const [project, count] of Object.entries(counts)) {
      const floor = floors[project]
      if (!floor) {
        failed += 1
        why.push(`${floorsFile} has no floor for the project "${project}"`)
        continue
      }
      const below = ['files', 'tests'].filter((what) => count[what] < floor[what])
      if (below.length > 0) {
        failed += 1
        why.push(
          `the project "${project}" ran ${count.files} test files and ${count.tests} tests, below its floor of ${floor.files} and ${floor.tests} (${floorsFile})`
        )
      } else if (count.files > floor.files || count.tests > floor.tests)
        notes.push(`the project "${project}" ran ${count.files} test files and ${count.tests} tests: raise its floor in ${floorsFile}`)
    }
  }
}
for (const line of notes) console.log(`floor: ${line}`)
for (const line of why) console.log(`not counted as passed: ${line}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
