// The one statement model every structured format (MT940, CAMT, OFX) feeds: statements of lines as the bank wrote them, laid out as a grid the tabular reader checks like any CSV (the same exact amounts, balance proof, lines not read), then keyed by the bank's own ids.
import type { StatementMapping, StatementProof } from '../../../shared/reconcile'
import { parseGrid } from './grid-reader'
import type { FileFacts, ParsedStatement } from './parsed-statement'
import type { StatementFormat } from './sniff'
import type { Grid } from './table'

/** One line of a bank statement as its format states it; amounts are decimal text with "." (signed, debit negative), as written when they could not be read. */
export interface BankLine {
  /** Where the line is: the file's line of its entry (1-based). */
  line: number
  /** YYYY-MM-DD, or the text as written when it is not a day. */
  bookingDate: string
  valueDate: string | null
  amount: string
  /** The bank's own id of the line (an OFX FITID, a CAMT AcctSvcrRef, an MT940 bank reference); never MT940's NONREF. */
  bankId: string | null
  reference: string | null
  /** Further references the line names (end-to-end id, instruction id, cheque number), kept in its description so matching finds them. */
  otherReferences: string[]
  description: string | null
  counterparty: string | null
  /** The line as the file has it: made when asked (only a line that cannot be read shows it), so reading a large file copies no text it does not show. */
  text: () => string
  /** A balance the statement states after this line (an MT940 intermediate closing balance), decimal text. */
  balanceAfter: string | null
  /** The line's own currency, when its amount is in another than the statement's (OFX's CURRENCY aggregate). */
  currency?: string | null
  /** Why the line could not be read, when its format's reader knows better than the cells say. */
  why?: string | undefined
}

/** A line a format's own count found and its reader could not read: named on its line, with its text and why, and nothing else made up. */
export function lineNotRead(line: number, text: () => string, why: string): BankLine {
  return {
    line,
    bookingDate: '(none)',
    valueDate: null,
    amount: '(none)',
    bankId: null,
    reference: null,
    otherReferences: [],
    description: null,
    counterparty: null,
    text,
    balanceAfter: null,
    why
  }
}

/** The 1-based line of an offset in a text, its line starts found once (however many offsets are asked). */
export function lineCounter(text: string): (at: number) => number {
  const starts: number[] = [0]
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) starts.push(k + 1)
  return (at) => {
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((starts[mid] as number) <= at) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
}

export interface BankStatement {
  account: string | null
  currency: string | null
  /** Decimal text, or null when the statement states none. */
  opening: string | null
  closing: string | null
  lines: BankLine[]
  /** Lines of the file that are not transactions of this statement, and why (pending entries listed apart, batch totals checked). */
  notes: { line: number; reason: string }[]
  /** How the user tells this statement from the file's others: its account and period. */
  label: string
  /** Balances the statement states that cannot prove it (in another currency, no credit/debit mark), each on its line: the statement is then not complete. */
  balanceProblems?: { line: number; message: string }[]
}

const COLUMNS = ['Booking date', 'Value date', 'Amount', 'Currency', 'Reference', 'Description', 'Counterparty', 'Bank id', 'Balance']

/** The mapping of the grid a bank statement is laid out as: the same for every structured format. */
export const STRUCTURED_MAPPING: StatementMapping = {
  columns: {
    date: 'Booking date',
    amount: 'Amount',
    currency: 'Currency',
    reference: 'Reference',
    description: 'Description',
    counterparty: 'Counterparty',
    balance: 'Balance'
  },
  dateOrder: 'ymd',
  decimalMark: '.',
  defaultCurrency: null,
  encoding: null,
  separator: null
}

/** A line's description with the references it names beyond its own, so a payer's end-to-end id is found as a reference would be. */
function describe(line: BankLine): string {
  const extra = line.otherReferences.filter((r) => r && r !== line.reference && !(line.description ?? '').includes(r))
  return [line.description, ...extra].filter((t) => t && t.trim() !== '').join(' · ')
}

/** Each statement read as a statement file: the grid checks amounts and balances; the ids are the bank's (account + its id + day + amount + occurrence) where it gives one. */
export function parseBankStatements(statements: readonly BankStatement[], facts: FileFacts, format: StatementFormat): ParsedStatement[] {
  return statements.map((statement) => {
    // The header block the tabular reader reads balances and the account from; its rows are on line 0 (no line of the file).
    const block: string[][] = [['Account number', statement.account ?? '']]
    if (statement.opening !== null) block.push(['Opening balance', statement.opening])
    if (statement.closing !== null) block.push(['Closing balance', statement.closing])
    const rows: string[][] = [...block, COLUMNS]
    const lines: number[] = [...block.map(() => 0), 0]
    for (const l of statement.lines) {
      rows.push([
        l.bookingDate,
        l.valueDate ?? '',
        l.amount,
        l.currency ?? statement.currency ?? '',
        l.reference ?? '',
        describe(l),
        l.counterparty ?? '',
        l.bankId ?? '',
        l.balanceAfter ?? ''
      ])
      lines.push(l.line)
    }
    const grid: Grid = { rows, lines, separator: null, sheet: null }
    // Data row i is the statement's line i. Ids from the bank's own id where it gives one (a bank may reuse it for a charge and its fee: the day and amount tell them apart), else from the line's content; always within the account.
    const account = statement.account ?? ''
    const parsed = parseGrid(
      grid,
      facts,
      { ...STRUCTURED_MAPPING, columns: { ...STRUCTURED_MAPPING.columns }, defaultCurrency: statement.currency },
      {
        structured: true,
        idText: (i, reference, description, counterparty) => {
          const bankId = statement.lines[i]?.bankId
          return bankId ? [`${account}/${bankId}`, null, null] : [reference, description, `${account}\u001f${counterparty ?? ''}`]
        },
        unreadLine: (i) => {
          const line = statement.lines[i] as BankLine
          return {
            text: line.text(),
            message: line.why && `${line.why[0]?.toUpperCase()}${line.why.slice(1)}.`,
            // A line its reader could read no cell of (lineNotRead) is a malformed line, not a bad date.
            ...(line.why && line.bookingDate === '(none)' && line.amount === '(none)' ? { code: 'malformed_line' as const } : {})
          }
        }
      }
    )
    return {
      ...parsed,
      format,
      label: statement.label,
      account: statement.account,
      header: COLUMNS,
      headerLine: null,
      skipped: [...parsed.skipped, ...statement.notes].sort((a, b) => a.line - b.line),
      proof:
        parsed.proof &&
        withBalanceProblems({ ...parsed.proof, account: statement.account ?? parsed.proof.account }, statement.balanceProblems ?? [])
    }
  })
}

/** A statement's proof with the balances it states that cannot prove it: then never complete, each said on its line. */
function withBalanceProblems(proof: StatementProof, problems: { line: number; message: string }[]): StatementProof {
  if (problems.length === 0) return proof
  return {
    ...proof,
    balanceProblems: problems,
    complete: false,
    verdict: `${proof.verdict}; ${problems.map((p) => `line ${p.line}: ${p.message}`).join('; ')}`
  }
}
