// What a Sandbox is seeded with by default, and the seed a Sandbox started with some options serves (its sample statement is built from the same).
import type { SeedOptions } from './data'

export const SEED_DEFAULTS = { seed: 1, payments: 5_000, plans: 40, subscriptions: 600, bulkFiles: [25, 240, 1200] }

/** The seeded data a Sandbox started with these options serves. */
export function sandboxSeed(options: Partial<SeedOptions> = {}): SeedOptions {
  return {
    seed: options.seed ?? SEED_DEFAULTS.seed,
    payments: options.payments ?? SEED_DEFAULTS.payments,
    plans: options.plans ?? SEED_DEFAULTS.plans,
    subscriptions: options.subscriptions ?? SEED_DEFAULTS.subscriptions,
    bulkFiles: options.bulkFiles ?? SEED_DEFAULTS.bulkFiles
  }
}
