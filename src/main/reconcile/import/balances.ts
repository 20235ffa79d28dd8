// A statement proves itself: its opening and closing balances, read wherever it states them, must tie with its lines, and each running balance must follow from the one before (same-day lines may be listed in another order; newest-first statements are read oldest first).
import { moneyText } from '../../../shared/money'
import { unstatedBalancesNote, type BalanceBreak, type StatementProof } from '../../../shared/reconcile'

/**
 * The statement's lines as the proof reads them, in file order, as columns (a million lines make no
 * million objects): each line's number, its day (null when it could not be read), its signed amount
 * (NaN when it could not be read) and the running balance after it (NaN when the line has none).
 */
export class ProofLines {
  readonly line: number[] = []
  readonly day: (string | null)[] = []
  readonly amount: number[] = []
  readonly balance: number[] = []

  push(line: number, day: string | null, amount: number | null, balance: number | null): void {
    this.line.push(line)
    this.day.push(day)
    this.amount.push(amount ?? NaN)
    this.balance.push(balance ?? NaN)
  }

  get length(): number {
    return this.line.length
  }

  /** The lines in file order: lines pushed out of order (those not read, added after the rest) are put in their place. */
  inFileOrder(): ProofLines {
    let ordered = true
    for (let k = 1; k < this.line.length && ordered; k++) if ((this.line[k] as number) < (this.line[k - 1] as number)) ordered = false
    if (ordered) return this
    const order = this.line.map((_, k) => k).sort((a, b) => (this.line[a] as number) - (this.line[b] as number))
    const out = new ProofLines()
    for (const k of order) out.push(this.line[k] as number, this.day[k] ?? null, this.amount[k] as number, this.balance[k] as number)
    return out
  }

  /** The same lines, last first (a statement listed newest first, read oldest first). */
  reversed(): ProofLines {
    const out = new ProofLines()
    for (let k = this.line.length - 1; k >= 0; k--)
      out.push(this.line[k] as number, this.day[k] ?? null, this.amount[k] as number, this.balance[k] as number)
    return out
  }
}

export interface ProofInput {
  lines: ProofLines
  /** Balances the statement states (a header block's "Opening balance", a "Balance c/f" line), or null. */
  opening: number | null
  closing: number | null
  account: string | null
  /** The statement's one currency, or null when its lines are in several. */
  currency: string | null
  /** A currency the statement states that is no ISO 4217 code ("<NGN"): nothing it states can be read in it. */
  unknownCurrency?: string | null
  /** Lines read, and lines that could not be read (each is also in `lines`, with what could be read of it). */
  linesRead: number
  notRead: number
}

/** Labels of an opening balance and of a closing balance, in the words banks print (English, French, German, Spanish, Dutch, Italian, Portuguese, Swedish, Polish, Lithuanian). */
export const OPENING_BALANCE =
  /\b(opening balance|opening bal|balance b\/?f|balance brought forward|brought forward|balance at start|start(?:ing)? balance|beginning balance|previous balance|solde (?:initial|précédent|precedent|d'ouverture)|anfangssaldo|alter saldo|saldo (?:inicial|anterior|iniziale|początkowe|poczatkowe)|beginsaldo|ingående saldo|likutis pradžiai|likutis pradziai|pradinis likutis)(?![\p{L}\p{N}])/iu
export const CLOSING_BALANCE =
  /\b(closing balance|closing bal|balance c\/?f|balance carried forward|carried forward|balance at end|end(?:ing)? balance|final balance|solde (?:final|de clôture|de cloture)|endsaldo|schlusssaldo|neuer saldo|saldo (?:final|finale|końcowe|koncowe)|eindsaldo|utgående saldo|likutis pabaigai|galutinis likutis)(?![\p{L}\p{N}])/iu

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
  if (input.unknownCurrency)
    return {
      ...base,
      currency: null,
      verdict: `its currency "${input.unknownCurrency}" is not an ISO 4217 code: its balances are not checked`
    }
  if (currency === null) return { ...base, verdict: 'its lines are in more than one currency: its balances are not checked' }
  // Read oldest first: a statement whose days only go down is listed newest first.
  const listed = input.lines.inFileOrder()
  let rising = false
  let falling = false
  let lastDay: string | null = null
  for (const day of listed.day) {
    if (day === null) continue
    if (lastDay !== null && day > lastDay) rising = true
    if (lastDay !== null && day < lastDay) falling = true
    lastDay = day
  }
  const newestFirst = falling && !rising
  const lines = newestFirst ? listed.reversed() : listed
  const { amount, balance } = lines
  const n = lines.length
  const breaks: BalanceBreak[] = []
  let runningBalances = 0
  let sum = 0
  let sumKnown = true
  for (let k = 0; k < n; k++) {
    if (!Number.isNaN(balance[k])) runningBalances++
    if (Number.isNaN(amount[k])) sumKnown = false
    else sum += amount[k] as number
  }
  let opening = input.opening
  let openingFrom: StatementProof['openingFrom'] = base.openingFrom
  let closing = input.closing
  let closingFrom: StatementProof['closingFrom'] = base.closingFrom
  if (runningBalances > 0) {
    // The opening a first running balance implies: when every line before it has an amount, it started from its balance less those lines.
    const first = balance.findIndex((b) => !Number.isNaN(b))
    if (opening === null && first >= 0) {
      let before = 0
      let known = true
      for (let k = 0; k <= first; k++) {
        if (Number.isNaN(amount[k])) known = false
        else before += amount[k] as number
      }
      if (known) {
        opening = (balance[first] as number) - before
        openingFrom = 'running balance'
      }
    }
    if (closing === null && !Number.isNaN(balance[n - 1])) {
      closing = balance[n - 1] as number
      closingFrom = 'running balance'
    }
    for (const b of runningBreaks(lines, opening)) breaks.push(b)
    // A line whose amount could not be read, between two balances, has the amount they imply.
    if (!sumKnown) {
      sum = impliedSum(lines, opening)
      sumKnown = !Number.isNaN(sum)
    }
  }
  const tieGapMinor = opening !== null && closing !== null && sumKnown ? closing - (opening + sum) : null
  const unstated = unstatedBalancesNote(openingFrom, closingFrom)
  const complete = tieGapMinor === 0 && breaks.length === 0 && input.notRead === 0 && unstated === null
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
  if (tieGapMinor === 0 && breaks.length === 0 && unstated !== null) verdict += unstated
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
function runningBreaks(lines: ProofLines, opening: number | null): BalanceBreak[] {
  const { line, day, amount, balance } = lines
  const n = lines.length
  const breaks: BalanceBreak[] = []
  let prev = opening
  let start = 0
  while (start < n) {
    let end = start + 1
    const d = day[start] ?? null
    while (end < n && d !== null && day[end] === d) end++
    // The day's lines not yet taken, by the balance each starts from (built only when the order as listed fails).
    let byStart: Map<number, number[]> | null = null
    let taken: Uint8Array | null = null
    let next = start
    for (let done = 0; done < end - start; done++) {
      while (taken !== null && taken[next - start]) next++
      let k = next
      const a = amount[k] as number
      const b = balance[k] as number
      if (prev !== null && !Number.isNaN(b) && !Number.isNaN(a) && prev + a !== b) {
        // Not in the order listed: the day's first line not taken whose balance follows from prev.
        if (taken === null) {
          // From here lines are taken out of order: those before `next` were taken in order already.
          taken = new Uint8Array(end - start)
          taken.fill(1, 0, next - start)
        }
        if (byStart === null) {
          byStart = new Map()
          for (let j = start; j < end; j++) {
            const cb = balance[j] as number
            const ca = amount[j] as number
            if (taken[j - start] || Number.isNaN(cb) || Number.isNaN(ca)) continue
            const from = cb - ca
            const list = byStart.get(from)
            if (list) list.push(j)
            else byStart.set(from, [j])
          }
        }
        const found = byStart.get(prev)?.find((j) => !(taken as Uint8Array)[j - start])
        if (found !== undefined) k = found
      }
      if (taken !== null) taken[k - start] = 1
      else next++
      const ka = amount[k] as number
      const kb = balance[k] as number
      if (Number.isNaN(kb)) {
        prev = prev === null || Number.isNaN(ka) ? null : prev + ka
        continue
      }
      if (prev !== null && !Number.isNaN(ka) && prev + ka !== kb)
        breaks.push({ line: line[k] as number, expectedMinor: prev + ka, foundMinor: kb, gapMinor: kb - (prev + ka) })
      prev = kb
    }
    start = end
  }
  return breaks
}

/** The lines' sum, a line not read taking the amount its running balance implies (its balance less the one before); NaN when one has neither. */
function impliedSum(lines: ProofLines, opening: number | null): number {
  const { amount, balance } = lines
  let sum = 0
  let prev = opening
  for (let k = 0; k < lines.length; k++) {
    const a = amount[k] as number
    const b = balance[k] as number
    if (!Number.isNaN(a)) sum += a
    else if (!Number.isNaN(b) && prev !== null) sum += b - prev
    else return NaN
    prev = !Number.isNaN(b) ? b : prev === null || Number.isNaN(a) ? null : prev + a
  }
  return sum
}
