// Test runner setup: unit, contract and browser end-to-end tests all run under plain Node, in two projects: the tests
// that run in their own process, side by side, and then, one file at a time, those that start processes of their own.
import { defineConfig } from 'vitest/config'
import SERIAL_TESTS from './test/support/serial-tests.json' with { type: 'json' }

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // A poll waits for something another process does (a host restarting, a page rendering). The default second is
    // shorter than a host restart takes on a loaded 2-core CI machine, so a poll waits up to 10 s unless it says otherwise.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: { name: 'in-process', include: ['test/**/*.test.ts'], exclude: [...SERIAL_TESTS], sequence: { groupOrder: 0 } }
      },
      {
        // Hosts, Chromium, the CLI and racing openers of one cache: run alone, they never wait for a core behind another
        // such test, so what they assert about processes working together is all that is tested.
        extends: true,
        test: { name: 'processes', include: [...SERIAL_TESTS], fileParallelism: false, sequence: { groupOrder: 1 } }
      }
    ]
  }
})
