// The seed every property test runs with: fixed in CI so a red run can be run again as it was, random elsewhere; always printed when a property fails (fast-check says the seed and the path to replay).
import type { Parameters } from 'fast-check'

/** LEDGERLINE_SEED when set; in CI a fixed seed; elsewhere a new one each run. */
export const PROPERTY_SEED = Number(process.env['LEDGERLINE_SEED'] ?? (process.env['CI'] ? 20_261_127 : Date.now() % 2_147_483_647))

/** fast-check's parameters for a property: the run's seed, this many runs, and a failure that names the seed to replay with. */
export function propertyRuns<T>(numRuns: number): Parameters<T> {
  return {
    seed: PROPERTY_SEED,
    numRuns,
    reporter: (details) => {
      if (details.failed)
        throw new Error(
          `Property failed with seed ${details.seed} (rerun with LEDGERLINE_SEED=${details.seed}), path "${details.counterexamplePath}":\n` +
            `${JSON.stringify(details.counterexample, null, 2)?.slice(0, 4000)}\n${String(details.errorInstance ?? '')}`
        )
    }
  }
}
