// References compared as people write them: case, spaces and punctuation never make two references differ, and a bank's own prefix ("REF:", "TRF/", "NIP-") is looked through.

/**
 * Prefixes banks put before the payer's reference; only tried when the reference as written is not
 * found, and only when a separator follows, so "REFUND1" stays whole. A business's own prefixes
 * (INV-, ORD-) are part of its references and never dropped: "INV-12" and "ORD-12" stay two keys.
 */
const BANK_PREFIX = /^(?:ref(?:erence)?|trf|trx|txn|nip|ft|no|nr)\s*[:#/\-.\s]\s*/i

const PLAIN = /^[A-Z0-9]*$/
const NOT_KEY = /[^A-Za-z0-9]/g

/** Upper case, ASCII letters and digits only: " pay-ref/0001 " → "PAYREF0001" (the key KeyIndex compares). */
export function normaliseReference(value: string): string {
  const text = value.trim()
  if (PLAIN.test(text)) return text
  return text.replace(NOT_KEY, '').toUpperCase()
}

/** The keys a reference written in a statement may stand for: as written, then without a bank's prefix ("REF: PAY-1" → "REFPAY1", "PAY1"). */
export function referenceCandidates(value: string): string[] {
  const key = normaliseReference(value)
  let text = value.trim()
  for (let i = 0; i < 2 && BANK_PREFIX.test(text); i++) text = text.replace(BANK_PREFIX, '')
  const stripped = normaliseReference(text)
  return stripped !== key && stripped !== '' ? [key, stripped] : [key]
}

/** A normalised key is only trusted when it is long enough to be a reference, not a word or a day number. */
export function isUsableKey(key: string): boolean {
  return key.length >= 6 && /\d/.test(key)
}

/**
 * Whole tokens of a description that could be references, normalised: split on spaces and the
 * punctuation around words (a reference's own hyphens and slashes stay inside its token).
 */
export function referenceTokens(text: string | null): string[] {
  if (!text) return []
  const out = new Set<string>()
  addTokens(text, out)
  // A reference typed with spaces around its hyphen or slash ("TST - 0000206", "INV / 42-7"): its parts joined as well as apart.
  if (SPACED_JOINER_TEST.test(text)) addTokens(text.replace(SPACED_JOINER, '$1$2'), out)
  return [...out]
}

const SPACED_JOINER_TEST = /[A-Za-z0-9](?:[ \t]+[-/][ \t]*|[-/][ \t]+)[A-Za-z0-9]/
const SPACED_JOINER = /([A-Za-z0-9])[ \t]*([-/])[ \t]*(?=[A-Za-z0-9])/g

function addTokens(text: string, out: Set<string>): void {
  for (const raw of text.split(/[\s,;|()[\]{}"']+/)) {
    const token = raw.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')
    if (token === '') continue
    for (const candidate of [token, ...token.split(/[:=]/)])
      for (const key of referenceCandidates(candidate)) if (isUsableKey(key)) out.add(key)
  }
}

/** Every key a statement's rows name: their references (as written and without a bank's prefix) and reference-like tokens of their descriptions. */
export function keysNamedBy(rows: Iterable<{ reference: string | null; description: string | null }>): Set<string> {
  const keys = new Set<string>()
  for (const row of rows) {
    if (row.reference) for (const key of referenceCandidates(row.reference)) keys.add(key)
    for (const token of referenceTokens(row.description)) keys.add(token)
  }
  return keys
}

/** Words every bank line carries; sharing them says nothing about who paid. */
const STOP_WORDS = new Set(
  'THE AND FOR FROM TO OF BY VIA WITH TRANSFER TRF TRANS TRANSACTION PAYMENT PAYMENTS PMT PAY NIP POS WEB ONLINE USSD CARD MOBILE MONEY MOMO DEPOSIT CREDIT DEBIT CR DR BANK LTD LIMITED PLC INC REF REFERENCE NO INWARD OUTWARD CHARGE CHARGES FEE FEES SETTLEMENT'.split(
    ' '
  )
)

/** Words of free text for similarity: upper case, letters and digits, two characters or more, without banking filler words. */
export function words(text: string | null | undefined): string[] {
  if (!text) return []
  return text
    .toUpperCase()
    .split(/[^A-Z0-9@.]+/)
    .map((w) => w.replace(/^[.@]+|[.@]+$/g, ''))
    .filter((w) => w.length >= 2 && !STOP_WORDS.has(w))
}

/**
 * How much two texts share, 0…1: the share of the smaller word set found in the other (an email's
 * user part and a name's words count), so "JOHN DOE TRANSFER" and "Doe, John" score 1.
 */
export function similarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0
  const expand = (list: readonly string[]): Set<string> => {
    const set = new Set<string>()
    for (const w of list) {
      set.add(w)
      if (w.includes('@')) for (const part of (w.split('@')[0] as string).split(/[._+-]/)) if (part.length >= 2) set.add(part)
    }
    return set
  }
  const sa = expand(a)
  const sb = expand(b)
  const [small, large] = sa.size <= sb.size ? [sa, sb] : [sb, sa]
  let shared = 0
  for (const w of small) if (large.has(w)) shared++
  return shared / small.size
}

const MONTH =
  /^(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|SEPT|OCT|NOV|DEC|JANUARY|FEBRUARY|MARCH|APRIL|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER)$/

/**
 * A statement line's steady words, as evidence is kept by them: its counterparty (else its
 * description) in upper case, without digits, month names, references or banking filler words, at
 * most six words ("TRF FROM TUNDE ADE/OCT 2026/REF 8812" → "TUNDE ADE"). Null when nothing steady is left.
 */
export function lineWords(line: { counterparty: string | null; description: string | null }): string | null {
  const text = line[lineWordsField(line)]
  const steady = words(text).filter((w) => !/\d/.test(w) && !MONTH.test(w))
  return steady.length === 0 ? null : steady.slice(0, 6).join(' ')
}

/** The field a line's steady words are read from: its counterparty when it has one, else its description. */
export function lineWordsField(line: { counterparty: string | null }): 'counterparty' | 'description' {
  return line.counterparty?.trim() ? 'counterparty' : 'description'
}
