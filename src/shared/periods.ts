// How a session's account and its place among the account's periods are said, the same in the window and the CLI.
import { parseMajor, moneyText } from './money'
import type { PeriodChain, SessionAccount } from './reconcile'

/** An account as compared: its letters and digits, upper-cased ("0123 4567-89" is "0123456789"). */
export const accountKey = (account: string): string => account.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase()

/** The periods of one account and currency chain; null for a session of no account (it stands alone). */
export const chainKey = (account: SessionAccount): string | null =>
  account.name === null ? null : `${accountKey(account.name)}\u001f${account.currency ?? ''}`

/** A session by its name, and its days unless the name says them already. */
export const periodInWords = (s: { name: string; from: string; to: string }): string =>
  s.name.includes(s.from) ? `"${s.name}"` : `"${s.name}" (${s.from} to ${s.to})`

/** The account in words: "account 0123456789 (NGN)", or that none is stated. */
export function accountInWords(account: SessionAccount): string {
  if (account.name === null)
    return "no account (its statements state none; name the session's account, --account NAME in the CLI, to chain its periods)"
  return `account ${account.name}${account.currency ? ` (${account.currency})` : ''}${account.namedBy === 'user' ? ', as named' : ''}`
}

/** The chain as the CLI prints it: its sentence, then each break, gap or overlap, each line indented. */
export function chainLines(account: SessionAccount, chain: PeriodChain | null, indent: string): string {
  return [chainHeadline(account, chain), ...(chain?.said ?? []).map((s) => `CHAIN: ${s}`)].map((line) => `${indent}${line}\n`).join('')
}

/** The chain in one sentence: the first period of its account, or which period it follows and whether its opening ties to that closing. */
export function chainHeadline(account: SessionAccount, chain: PeriodChain | null): string {
  if (chain === null) return `Of ${accountInWords(account)}.`
  const of = `Of ${accountInWords(account)}`
  if (chain.previous === null) return `${of}: no closed period of the account comes before it, so its opening is tied to none.`
  const previous = periodInWords(chain.previous)
  const money = (value: string | null): string =>
    value === null || account.currency === null ? '(not stated)' : moneyText(parseMajor(value, account.currency), account.currency)
  if (chain.ties === true) return `${of}: follows ${previous}; its opening ${money(chain.opening)} ties to that closing.`
  if (chain.ties === false) return `${of}: follows ${previous}; its opening does NOT tie to that closing (the figures below).`
  return `${of}: follows ${previous}; its opening is not checked (a balance is not stated).`
}
