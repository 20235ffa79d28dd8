// Test runner setup: unit, contract and browser end-to-end tests all run under plain Node.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // A poll waits for something another process does (a host restarting, a page rendering). The default second is
    // shorter than a host restart takes on a loaded 2-core CI machine, so a poll waits up to 10 s unless it says otherwise.
    expect: { poll: { timeout: 10_000 } }
  }
})
