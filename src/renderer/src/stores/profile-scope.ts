// What belongs to the profile in use: each profile-scoped store registers how to forget it, and a profile change from the host resets them all at once.
const resets = new Set<() => void>()

/** Called in a store's setup: `reset` empties what the store holds for the profile that was in use. */
export function profileScoped(reset: () => void): void {
  resets.add(reset)
}

export function resetProfileScoped(): void {
  for (const reset of resets) reset()
}
