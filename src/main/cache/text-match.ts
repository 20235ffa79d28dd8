// What a user types, made safe for the cache's SQL: an FTS5 MATCH query that is never a syntax error, and a LIKE pattern where % and _ are themselves.

/**
 * Turns whatever the user typed into a safe FTS5 query: every run of letters or digits becomes a
 * quoted term, all terms must match, and terms of two or more characters match as prefixes (a lone
 * letter would match almost everything). Quotes, operators, brackets and stars are never passed
 * through, so no input can be a syntax error. Returns null when nothing searchable is left.
 */
export function toFtsQuery(text: string): string | null {
  const terms = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu)
  if (!terms || terms.length === 0) return null
  return terms
    .slice(0, 16)
    .map((term) => (term.length >= 2 ? `"${term.slice(0, 64)}"*` : `"${term}"`))
    .join(' ')
}

/** A LIKE pattern for text typed by the user (with `escape '\\'`): lower case, and `%` and `_` are themselves, not wildcards. */
export const likeText = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
