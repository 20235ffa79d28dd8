// A statement proves itself: its opening and closing balances, read wherever it states them, must tie with its lines, and each running balance must follow from the one before (same-day lines may be listed in another order; newest-first statements are read oldest first).
import { moneyText } from '../../../shared/money'
import type { BalanceBreak, StatementProof } from '../../../shared/reconcile'

/** One line of the statement as the proof reads it, in file order. */
export interface ProofLine {
  line: number
  /** Its day (YYYY-MM-DD), or null when it could not be read. */
  day: string | null
  /** Its signed amount, or null when it could not be read. */
  amountMinor: number | null
  /** The running balance after it, or null when the line has none. */
  balanceMinor: number | null
}

export interface ProofInput {
  lines: ProofLine[]
  /** Balances the statement states (a header block's "Opening balance", a "Balance c/f" line), or null. */
  opening: number | null
  closing: number | null
  account: string | null
  /** The statement's one currency, or null when its lines are in several. */
  currency: string | null
  /** Lines read, and lines that could not be read (each is also in `lines`, with what could be read of it). */
  linesRead: number
  notRead: number
}

/** Labels of an opening balance and of a closing balance, in the words banks print (English, French, German, Spanish, Dutch). */
export const OPENING_BALANCE =
  /\b(opening balance|opening bal|balance b\/?f|balance brought forward|brought forward|balance at start|start(?:ing)? balance|beginning balance|previous balance|solde (?:initial|précédent|precedent|d'ouverture)|anfangssaldo|alter saldo|saldo (?:inicial|anterior)|beginsaldo)\b/i
export const CLOSING_BALANCE =
  /\b(closing balance|closing bal|balance c\/?f|balance carried forward|carried forward|balance at end|end(?:ing)? balance|final balance|solde (?:final|de clôture|de cloture)|endsaldo|schlusssaldo|neuer saldo|saldo final|eindsaldo)\b/i

export function proveStatement(input: ProofInput): StatementProof {
  const { currency } = input
  const { linesRead } = input
  const base = {
    account: input.account,
    currency,
    linesRead,
    runningBalances: 0,
    newestFirst: false,
    breaks: [] as BalanceBreak[],
    openingMinor: input.opening,
    openingFrom: input.opening === null ? null : ('statement' as const),
    closingMinor: input.closing,
    closingFrom: input.closing === null ? null : ('statement' as const),
    tieGapMinor: null,
    complete: false
  }
  if (currency === null) return { ...base, verdict: 'its lines are in more than one currency: its balances are not checked' }
  // Read oldest first: a statement whose days only go down is listed newest first.
  let rising = false
  let falling = false
  let lastDay: string | null = null
  for (const l of input.lines) {
    if (l.day === null) continue
    if (lastDay !== null && l.day > lastDay) rising = true
    if (lastDay !== null && l.day < lastDay) falling = true
    lastDay = l.day
  }
  const newestFirst = falling && !rising
  const lines = newestFirst ? [...input.lines].reverse() : input.lines
  const breaks: BalanceBreak[] = []
  let runningBalances = 0
  let sum = 0
  let sumKnown = true
  for (const l of lines) {
    if (l.balanceMinor !== null) runningBalances++
    if (l.amountMinor === null) sumKnown = false
    else sum += l.amountMinor
  }
  let opening = input.opening
  let openingFrom: StatementProof['openingFrom'] = base.openingFrom
  let closing = input.closing
  let closingFrom: StatementProof['closingFrom'] = base.closingFrom
  if (runningBalances > 0) {
    const first = lines.find((l) => l.balanceMinor !== null && l.amountMinor !== null)
    if (opening === null && first && first === lines.find((l) => l.balanceMinor !== null)) {
      // Only when no line before the first balance lacks one: then the opening is what the first balance started from.
      const before = lines.indexOf(first)
      if (lines.slice(0, before).every((l) => l.amountMinor !== null)) {
        opening =
          (first.balanceMinor as number) -
          (first.amountMinor as number) -
          lines.slice(0, before).reduce((s, l) => s + (l.amountMinor as number), 0)
        openingFrom = 'running balance'
      }
    }
    const last = [...lines].reverse().find((l) => l.balanceMinor !== null)
    if (closing === null && last && lines.indexOf(last) === lines.length - 1) {
      closing = last.balanceMinor
      closingFrom = 'running balance'
    }
    breaks.push(...runningBreaks(lines, opening))
    // A line whose amount could not be read, between two balances, has the amount they imply.
    sumKnown = sumKnown || lines.every((l) => l.amountMinor !== null || l.balanceMinor !== null)
    if (!sumKnown) sum = NaN
    else sum = impliedSum(lines, opening)
  }
  const tieGapMinor = opening !== null && closing !== null && sumKnown && !Number.isNaN(sum) ? closing - (opening + sum) : null
  const complete = tieGapMinor === 0 && breaks.length === 0 && input.notRead === 0
  const money = (m: number): string => moneyText(m, currency)
  let verdict: string
  if (opening === null || closing === null)
    verdict =
      opening === null && closing === null
        ? 'no balances to check'
        : `only ${opening === null ? 'a closing' : 'an opening'} balance: the lines cannot be checked against it`
  else if (tieGapMinor === null) verdict = `opening ${money(opening)}, closing ${money(closing)}: not every line's amount could be read`
  else if (tieGapMinor === 0)
    verdict = `ties: opening ${money(opening)} + lines ${money(sum)} = closing ${money(closing)}${breaks.length > 0 ? `, but the running balance breaks ${breaks.length} time(s)` : ''}`
  else
    verdict = `does not tie: opening ${money(opening)} + lines ${money(sum)} = ${money(opening + sum)}, but the closing balance is ${money(closing)} (${money(tieGapMinor)} apart)`
  if (tieGapMinor === 0 && breaks.length === 0 && input.notRead > 0) verdict += `; ${input.notRead} line(s) not read`
  return {
    ...base,
    openingMinor: opening,
    openingFrom,
    closingMinor: closing,
    closingFrom,
    runningBalances,
    newestFirst,
    breaks,
    tieGapMinor,
    complete,
    verdict
  }
}

/**
 * Each running balance against the one before plus its line. Lines of one day may be listed in
 * another order than they were posted: within a day, the next line whose balance follows is taken
 * first. A balance that follows from none is a break (the gap is a line missing, or doubled); the
 * check goes on from the balance found. A line whose amount was not read takes the amount its
 * balance implies.
 */
function runningBreaks(lines: readonly ProofLine[], opening: number | null): BalanceBreak[] {
  const breaks: BalanceBreak[] = []
  let prev = opening
  let start = 0
  while (start < lines.length) {
    let end = start + 1
    const day = lines[start]?.day ?? null
    while (end < lines.length && (lines[end]?.day ?? null) === day && day !== null) end++
    // The day's lines not yet taken, by the balance each starts from (built only when the order as listed fails).
    let byStart: Map<number, number[]> | null = null
    const taken = new Uint8Array(end - start)
    let next = start
    for (let done = 0; done < end - start; done++) {
      while (taken[next - start]) next++
      let k = next
      const l = lines[k] as ProofLine
      if (prev !== null && l.balanceMinor !== null && l.amountMinor !== null && prev + l.amountMinor !== l.balanceMinor) {
        // Not in the order listed: the day's first line not taken whose balance follows from prev.
        if (byStart === null) {
          byStart = new Map()
          for (let j = start; j < end; j++) {
            const c = lines[j] as ProofLine
            if (taken[j - start] || c.balanceMinor === null || c.amountMinor === null) continue
            const from = c.balanceMinor - c.amountMinor
            const list = byStart.get(from)
            if (list) list.push(j)
            else byStart.set(from, [j])
          }
        }
        const candidates = byStart.get(prev)
        const found = candidates?.find((j) => !taken[j - start])
        if (found !== undefined) k = found
      }
      taken[k - start] = 1
      const line = lines[k] as ProofLine
      if (line.balanceMinor === null) {
        prev = prev === null || line.amountMinor === null ? null : prev + line.amountMinor
        continue
      }
      if (prev !== null && line.amountMinor !== null && prev + line.amountMinor !== line.balanceMinor)
        breaks.push({
          line: line.line,
          expectedMinor: prev + line.amountMinor,
          foundMinor: line.balanceMinor,
          gapMinor: line.balanceMinor - (prev + line.amountMinor)
        })
      prev = line.balanceMinor
    }
    start = end
  }
  return breaks
}

/** The lines' sum, a line not read taking the amount its running balance implies (its balance less the one before). */
function impliedSum(lines: readonly ProofLine[], opening: number | null): number {
  let sum = 0
  let prev = opening
  for (const l of lines) {
    if (l.amountMinor !== null) sum += l.amountMinor
    else if (l.balanceMinor !== null && prev !== null) sum += l.balanceMinor - prev
    else return NaN
    prev = l.balanceMinor ?? (prev === null || l.amountMinor === null ? null : prev + l.amountMinor)
  }
  return sum
}
