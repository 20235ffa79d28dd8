// The test files that start processes of their own (a service host, Chromium, the CLI, several openers of one cache):
// vitest.config.mts runs them one at a time after the rest, and test/meta/serial.test.ts checks none is missing here.
export const SERIAL_TESTS = [
  'test/e2e/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/host/**/*.test.ts',
  'test/app/shell.test.ts',
  'test/**/ipc.test.ts',
  'test/sync/kill-resume.test.ts',
  'test/reconcile/killed.test.ts',
  'test/security/confirmations.exploit.test.ts',
  'test/security/ipc-fuzz.test.ts',
  'test/security/key-checks.exploit.test.ts',
  'test/security/keys.exploit.test.ts',
  'test/security/migrations-race.exploit.test.ts',
  'test/ipc/router.test.ts',
  'test/team/workspace.test.ts',
  'test/team/sessions.test.ts',
  'test/team/replicas.test.ts',
  'test/team/tls.test.ts'
] as const

/** What a test file that starts a process of its own uses. */
export const STARTS_PROCESSES = /\b(startTestHost|startRendererHarness|runCli|startCli|nodeHostLauncher|spawn|execFile|fork)\(|new Worker\(/
