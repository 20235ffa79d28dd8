// JSON.parse that never rounds money: amounts keep the text the server sent, and numbers too long for a double are kept as text.

/** Keys whose numbers are money or rates: their values are read as the text sent (e.g. "100.50", not 100.5). */
export const MONEY_KEYS: ReadonlySet<string> = new Set(['amount', 'localAmount', 'totalFees', 'totalTaxAmount', 'totalLocalAmount', 'rate'])

/** A double holds 15 significant decimal digits exactly; beyond that, JSON.parse would round. */
export const MAX_EXACT_DIGITS = 15

function significantDigits(literal: string): number {
  const mantissa = literal
    .replace(/^-/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
  return mantissa.replace(/^0+/, '').replace(/0+$/, '').length
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/**
 * Parses JSON text like JSON.parse, except that a number is handed over as its literal text (a
 * string) when it is the value of a money key (MONEY_KEYS) or has more than 15 significant digits.
 * Money keeps its exact text; any other over-long number becomes a string the response schema then
 * refuses instead of a silently rounded value. Throws SyntaxError exactly when JSON.parse would.
 */
export function parseJsonExact(text: string): unknown {
  const parts: string[] = []
  let copiedTo = 0
  let lastString: string | null = null
  let keyForValue: string | null = null
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      const start = i
      i++
      let escaped = false
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === 92 /* \ */) {
          escaped = true
          i += 2
          continue
        }
        if (d === 34) break
        i++
      }
      i++
      const body = text.slice(start + 1, i - 1)
      lastString = escaped ? safeUnescape(text.slice(start, i)) : body
      keyForValue = null
      continue
    }
    if (c === 58 /* : */) {
      keyForValue = lastString
      lastString = null
      i++
      continue
    }
    if (c === 45 /* - */ || isDigit(c)) {
      const start = i
      i++
      while (i < n) {
        const d = text.charCodeAt(i)
        if (isDigit(d) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) i++
        else break
      }
      const literal = text.slice(start, i)
      // A malformed literal is left alone, so JSON.parse rejects the text as it would have.
      const quote =
        JSON_NUMBER.test(literal) &&
        ((keyForValue !== null && MONEY_KEYS.has(keyForValue)) || significantDigits(literal) > MAX_EXACT_DIGITS)
      if (quote) {
        parts.push(text.slice(copiedTo, start), `"${literal}"`)
        copiedTo = i
      }
      keyForValue = null
      lastString = null
      continue
    }
    if (c === 44 /* , */ || c === 91 /* [ */ || c === 123 /* { */) {
      keyForValue = null
      lastString = null
    }
    i++
  }
  if (copiedTo === 0) return JSON.parse(text)
  parts.push(text.slice(copiedTo))
  return JSON.parse(parts.join(''))
}

function safeUnescape(quoted: string): string | null {
  try {
    return JSON.parse(quoted) as string
  } catch {
    return null
  }
}
