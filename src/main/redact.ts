// Strips API keys and bearer tokens from any text before it is logged, returned or written anywhere.

const SECRET_PATTERNS: RegExp[] = [
  // Provider key formats: sk_test_…, sk_live_…, pk_test_…, pk_live_…
  /\b[sp]k_(?:test|live)_[A-Za-z0-9_-]+/g,
  // Any bearer credential in a header dump or error text.
  /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi
]

export function redactSecrets(text: string, extraSecrets: readonly string[] = []): string {
  let out = text
  for (const secret of extraSecrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]')
  }
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, '[redacted]')
  return out
}
