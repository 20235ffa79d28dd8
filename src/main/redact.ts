// Strips API keys and bearer tokens from any text before it is stored, logged, printed or returned to the window.

const SECRET_PATTERNS: RegExp[] = [
  // Provider key formats: sk_test_…, sk_live_…, pk_test_…, pk_live_…
  /\b[sp]k_(?:test|live)_[A-Za-z0-9_-]+/g,
  // Any bearer credential in a header dump or error text.
  /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi
]

/**
 * Every key this process has held (from the keychain, a form, the environment). Patterns alone
 * miss a key with characters outside them, or a server that echoes part of it back; the exact
 * values are removed too, wherever they appear.
 */
const knownSecrets = new Set<string>()

/** Remembers a key so redactSecrets removes its exact value from now on. */
export function registerSecret(secret: string): void {
  if (secret.length >= 8) knownSecrets.add(secret)
}

export function redactSecrets(text: string, extraSecrets: readonly string[] = []): string {
  let out = text
  for (const secret of [...extraSecrets, ...knownSecrets]) {
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('[redacted]')
  }
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, '[redacted]')
  return out
}

/** The same for every string inside a value about to leave the host (results, events): a last net under every message. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item)) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) out[key] = redactDeep(inner)
    return out as T
  }
  return value
}
