// The test files that start processes of their own (a service host, Chromium, the CLI, several openers of one cache):
// vitest.config.mts runs them one at a time after the rest, and test/meta/serial.test.ts checks none is missing here.
import serialTests from './serial-tests.json'

/** The patterns, kept as data so scripts/test-totals.mjs reads the same list to count each project's tests. */
export const SERIAL_TESTS: readonly string[] = serialTests

/** What a test file that starts a process of its own uses. */
export const STARTS_PROCESSES =
  /\b(startTestHost|startRendererHarness|runCli|startCli|nodeHostLauncher|spawn|execFile|fork)\(|new Worker\(|\bchromium\.launch\(/
