// The built-in Sandbox profile the app opens on when no key is configured.

export const SANDBOX_PROFILE = Object.freeze({ id: 'sandbox', name: 'Sandbox', mode: 'test' as const })
