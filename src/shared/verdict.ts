// The one place that decides what Ledgerline may say of a session (accounted for, statement complete, nothing left, exit 0), per currency, from the session's facts: every output reads it, none decides for itself.
import { bankReconciliations } from './bank-reconciliation'
import { moneyText, parseMajor } from './money'
import { periodInWords } from './periods'
import type { CurrencyVerdict, ReconSummary, Verdict } from './reconcile'

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/**
 * What may be said, and why not. A currency is accounted for only when every line of the session's
 * statements is in an item or counted apart (outside the period, the same line twice), no line is
 * still not read, the items foot, its statements state both balances and the difference left is 0,
 * and no warning stands (a period whose opening does not tie to its account's last closed period's
 * closing, or days between periods that none holds, is one); nothing is left when, besides, no item waits for the user. A statement is
 * complete when it ties, its running balance does not break and no line of it is still not read.
 * Exit 0 only when all of it holds in every currency.
 */
export function verdictOf(summary: Omit<ReconSummary, 'verdict'>): Verdict {
  const warnings: string[] = []
  const lines = summary.lines ?? null
  // The statements' lines, counted from what the import stored, against the lines in items and those counted apart.
  let lineGap: string | null = null
  if (lines === null) lineGap = 'this session was run before Ledgerline counted every line of its statements: run it again'
  else {
    const inItems = summary.currencies.reduce((n, c) => n + (c.fileLines ?? 0), 0)
    const apart = [...lines.outsidePeriod, ...lines.sameLineTwice].reduce((n, l) => n + l.count, 0)
    if (inItems + apart !== lines.inStatements)
      lineGap = `the statements hold ${plural(lines.inStatements, 'line')}, but ${plural(inItems, 'is', 'are')} in items and ${plural(apart, 'is', 'are')} counted apart`
    if (lines.inStatements > 0 && lines.inOtherCurrencies * 2 > lines.inStatements)
      warnings.push(
        `${lines.inOtherCurrencies.toLocaleString('en-US')} of the ${plural(lines.inStatements, 'line')} are in a currency none of the provider's records is in (${lines.providerCurrencies.length > 0 ? `they are in ${lines.providerCurrencies.join(', ')}` : 'it has no records for the period'}): check the statement's currency and the profile`
      )
    if (lines.inStatements > 0 && inItems === 0)
      warnings.push(
        `none of the statements' ${plural(lines.inStatements, 'line')} is dated in the period ${summary.period.from} to ${summary.period.to}`
      )
  }
  // A period of a chain: its opening must be the closing of the account's last closed period, and no days between them may go unreconciled.
  const chain = summary.chain ?? null
  const currency = summary.account?.currency ?? null
  if (chain?.previous && chain.ties === false && chain.opening !== null && chain.previousClosing !== null && currency !== null)
    warnings.push(
      `the opening balance ${moneyText(parseMajor(chain.opening, currency), currency)} does not tie to the closing balance ${moneyText(parseMajor(chain.previousClosing, currency), currency)} of ${periodInWords(chain.previous)}`
    )
  if (chain?.gap) warnings.push(`no period of the account holds ${chain.gap.from} to ${chain.gap.to}, before this one`)
  const recs = bankReconciliations(summary)
  const exceptions = summary.exceptions
  const notReadOpen = summary.notReadOpen ?? 0
  const currencies: CurrencyVerdict[] = summary.currencies.map((c) => {
    const why: string[] = []
    const money = (minor: number): string => moneyText(minor, c.currency)
    const statements = (summary.statements ?? []).filter((s) => s.currency === c.currency)
    const statementComplete = statements.length > 0 && statements.every((s) => s.complete)
    const difference = recs.find((r) => r.currency === c.currency)?.differenceMinor ?? null
    if (lineGap !== null) why.push(lineGap)
    if (notReadOpen > 0) why.push(`${plural(notReadOpen, 'line')} not read: read each by hand or leave it out with a reason`)
    if (c.unexplainedMinor !== 0) why.push(`${money(c.unexplainedMinor)} is not explained by the items`)
    if (statements.length === 0) why.push(`no statement of the session is in ${c.currency}, so nothing states its balances`)
    else if (difference === null)
      why.push(
        `the statement does not state both an opening and a closing balance in ${c.currency}: nothing proves that every line was read`
      )
    else if (difference !== 0) why.push(`difference left ${money(difference)}: the statement's balances do not follow from its lines`)
    for (const s of statements)
      if (!s.complete && s.balanceBreaks.length > 0)
        why.push(`${s.file}: its running balance breaks ${plural(s.balanceBreaks.length, 'time')}`)
      else if (!s.complete && difference === 0 && s.notRead.length === 0) why.push(`${s.file}: ${s.verdict}`)
    for (const w of warnings) why.push(w)
    const accountedFor = why.length === 0
    if (exceptions > 0) why.push(`${plural(exceptions, 'item')} left to review`)
    return {
      currency: c.currency,
      differenceLeftMinor: difference,
      statementComplete,
      accountedFor,
      nothingLeft: accountedFor && exceptions === 0,
      why
    }
  })
  const accountedFor = currencies.length > 0 && currencies.every((c) => c.accountedFor)
  const complete = (summary.statements ?? []).length > 0 && (summary.statements ?? []).every((s) => s.complete)
  const nothingLeft = accountedFor && exceptions === 0
  const exitCode = nothingLeft && complete && warnings.length === 0 ? 0 : 1
  const firstWhy = currencies.flatMap((c) => c.why)[0]
  const headline =
    currencies.length === 0
      ? 'Nothing was reconciled: the session has no statement line and no provider record in its period.'
      : exitCode === 0
        ? `Accounted for: every line of ${plural((summary.statements ?? []).length, 'statement')} is in an item${lines && lines.outsidePeriod.some((l) => l.count > 0) ? ' or counted outside the period' : ''}, each statement ties, the difference left is 0 and nothing is left to review.`
        : accountedFor
          ? `Accounted for, but ${plural(exceptions, 'item')} left to review.`
          : `Not accounted for: ${firstWhy ?? 'see the items'}.`
  return { accountedFor, complete, nothingLeft, exitCode, headline, warnings, currencies }
}
