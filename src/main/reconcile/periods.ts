// Accounts and periods: which account a session is of (as its statements state it, or as the user named it), and how its period chains to the account's others (opening against the last closing, gaps, overlaps).
import { moneyText, toMajorString } from '../../shared/money'
import { accountKey, chainKey, periodInWords } from '../../shared/periods'
import type { ImportedFileInfo, PeriodChain, SessionAccount } from '../../shared/reconcile'

/** What the chain reads of one statement: its account, currency and balances as its proof states them. */
export interface PeriodFile {
  id: string
  name: string
  account: string | null
  currency: string | null
  openingMinor: number | null
  closingMinor: number | null
}

/** A stored statement as the chain reads it. */
export const periodFileOf = (f: ImportedFileInfo): PeriodFile => ({
  id: f.id,
  name: f.name,
  account: f.proof?.account ?? f.account,
  currency: f.proof?.currency ?? null,
  openingMinor: f.proof?.openingMinor ?? null,
  closingMinor: f.proof?.closingMinor ?? null
})

/** What the chain reads of one session. */
export interface PeriodSession {
  id: string
  name: string
  from: string
  to: string
  closed: boolean
  /** The account the user named for it, if any. */
  named: string | null
  files: readonly PeriodFile[]
}

/** The one value every file gives (nulls aside), or null when they give none or several. */
function theOne<T>(values: readonly (T | null)[], key: (v: T) => string): T | null {
  const found = new Map<string, T>()
  for (const v of values) if (v !== null) found.set(key(v), found.get(key(v)) ?? v)
  return found.size === 1 ? ([...found.values()][0] as T) : null
}

/** The account a session's statements state (one account among them all), or null. */
export function statedAccount(files: readonly Pick<PeriodFile, 'account'>[]): string | null {
  return theOne(
    files.map((f) => f.account),
    accountKey
  )
}

/** The account a session is of: the one its statements state, else the one the user named. */
export function accountOf(session: Pick<PeriodSession, 'named' | 'files'>): SessionAccount {
  const currency = theOne(
    session.files.map((f) => f.currency),
    (c) => c
  )
  const stated = statedAccount(session.files)
  if (stated !== null) return { name: stated, currency, namedBy: 'statement' }
  if (session.named !== null) return { name: session.named, currency, namedBy: 'user' }
  return { name: null, currency, namedBy: null }
}

const nextDay = (day: string, by: number): string => {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + by)
  return d.toISOString().slice(0, 10)
}

/**
 * Each session's place among the sessions of its account (by account and currency): the account's
 * last closed period before it, whether its opening balance ties to that period's closing, the days
 * between them no period holds, and the periods it shares days with. Null for a session of no account.
 * `firstAndLast` orders a session's statements when it has several (the first's opening, the last's closing);
 * `only` limits the work to one session's chain.
 */
export function periodChains(
  sessions: readonly PeriodSession[],
  firstAndLast: (files: readonly PeriodFile[]) => { first: PeriodFile; last: PeriodFile } | null,
  only?: string
): Map<string, PeriodChain | null> {
  const accounts = new Map(sessions.map((s) => [s.id, accountOf(s)]))
  const keyOf = (s: PeriodSession): string | null => chainKey(accounts.get(s.id) as SessionAccount)
  const chains = new Map<string, PeriodChain | null>()
  for (const session of sessions) {
    if (only !== undefined && session.id !== only) continue
    const key = keyOf(session)
    if (key === null) {
      chains.set(session.id, null)
      continue
    }
    const account = accounts.get(session.id) as SessionAccount
    const others = sessions.filter((s) => s.id !== session.id && keyOf(s) === key)
    const overlaps = others
      .filter((s) => s.from <= session.to && s.to >= session.from)
      .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.id < b.id ? -1 : 1))
    const before = others.filter((s) => s.to < session.from).sort((a, b) => (a.to > b.to ? -1 : a.to < b.to ? 1 : a.id < b.id ? -1 : 1))
    const previous = before.find((s) => s.closed) ?? null
    // The last day the account's periods that start before this one hold, whatever their state: a gap is only days none holds.
    const earlier = others.filter((s) => s.from < session.from).sort((a, b) => (a.to > b.to ? -1 : a.to < b.to ? 1 : a.id < b.id ? -1 : 1))
    const neighbour = earlier[0] ?? null
    const said: string[] = []
    const where = periodInWords
    const currency = account.currency
    const amount = (minor: number): string => (currency ? moneyText(minor, currency) : String(minor))
    let previousClosing: number | null = null
    let opening: number | null = null
    let ties: boolean | null = null
    if (previous !== null && currency !== null) {
      const last = firstAndLast(previous.files)?.last ?? null
      const first = firstAndLast(session.files)?.first ?? null
      previousClosing = last?.closingMinor ?? null
      opening = first?.openingMinor ?? null
      if (previousClosing !== null && opening !== null) {
        ties = previousClosing === opening
        if (!ties)
          said.push(
            `The opening balance ${amount(opening)} (${first?.name}) does not tie to the closing balance ${amount(previousClosing)} of ${where(previous)} (${last?.name}): ${amount(Math.abs(opening - previousClosing))} apart.`
          )
      } else if (previousClosing === null)
        said.push(`${where(previous)} states no closing balance: this period's opening is not checked against it.`)
      else
        said.push(
          `${first?.name ?? 'The statement'} states no opening balance: it is not checked against the closing balance ${amount(previousClosing)} of ${where(previous)}.`
        )
    }
    const gap =
      neighbour !== null && nextDay(neighbour.to, 1) < session.from
        ? { from: nextDay(neighbour.to, 1), to: nextDay(session.from, -1) }
        : null
    if (gap !== null && neighbour !== null)
      said.push(`No period of account ${account.name} holds ${gap.from} to ${gap.to}, between ${where(neighbour)} and this one.`)
    for (const o of overlaps) {
      const from = o.from > session.from ? o.from : session.from
      const to = o.to < session.to ? o.to : session.to
      said.push(
        o.from === session.from && o.to === session.to
          ? `${where(o)} reconciles the same days of the same account: one of the two is a duplicate.`
          : `This period shares ${from === to ? from : `${from} to ${to}`} with ${where(o)} of the same account.`
      )
    }
    chains.set(session.id, {
      previous: previous && { id: previous.id, name: previous.name, from: previous.from, to: previous.to },
      previousClosing: previousClosing === null || currency === null ? null : toMajorString(previousClosing, currency),
      opening: opening === null || currency === null ? null : toMajorString(opening, currency),
      ties,
      gap,
      overlaps: overlaps.map((o) => ({ id: o.id, name: o.name, from: o.from, to: o.to, closed: o.closed })),
      said
    })
  }
  return chains
}

/**
 * Lock dates: a closed period locks its days for its account. The closed periods of the account that
 * share days with a session, said as the refusal to change anything in them; null when none does.
 */
export function lockedDays(session: { account: SessionAccount; chain: PeriodChain | null }, days?: readonly string[]): string | null {
  const holds = (o: { from: string; to: string }, d: string): boolean => d >= o.from && d <= o.to
  const locked = (session.chain?.overlaps ?? []).filter((o) => o.closed && (days === undefined || days.some((d) => holds(o, d))))
  if (locked.length === 0) return null
  const first = days?.filter((d) => locked.some((o) => holds(o, d))).sort()[0]
  const what = first === undefined ? 'The period shares days with' : `It is dated ${first}, inside`
  return `${what} ${locked.map((o) => periodInWords(o)).join(' and ')} of account ${session.account.name}, which is closed: the days of a closed period are locked. Reopen that period with a reason to change anything dated in it.`
}
