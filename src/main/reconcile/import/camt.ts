// ISO 20022 CAMT.052/053/054 (any version) → bank statements over a streaming XML parser: only booked entries are lines, pending ones listed apart; a batch entry split into its transaction details, each with its own amount, the batch checked against them.
import iconv from 'iconv-lite'
import { SaxesParser } from 'saxes'
import { AppError } from '../../errors'
import { lineCounter, lineNotRead, type BankLine, type BankStatement } from './structured'
import { decodeAs, decodeUtf8Strictly } from './encoding'

/** What is collected of one element kind (a statement, a balance, an entry, a transaction detail): its line and each leaf's text by its path below it. */
interface Node {
  line: number
  /** Where its element starts and ends in the text (its XML is the line's raw text). */
  start: number
  end: number
  values: Map<string, string>
  /** Remittance lines (Ustrd), kept in order. */
  texts: string[]
}

const node = (line: number, start = 0): Node => ({ line, start, end: start, values: new Map(), texts: [] })
const first = (n: Node, ...paths: string[]): string | null => {
  for (const p of paths) {
    const v = n.values.get(p)
    if (v !== undefined && v.trim() !== '') return v.trim()
  }
  return null
}

/** A path below a record ("Refs/EndToEndId") and the paths one element further down: each made once and shared by every entry of a file. */
interface PathNode {
  key: string
  below: Map<string, PathNode>
}

const RECORD_PATH: PathNode = { key: '', below: new Map() }

function pathBelow(above: PathNode, local: string): PathNode {
  const known = above.below.get(local)
  if (known !== undefined) return known
  const node: PathNode = { key: above.key === '' ? local : `${above.key}/${local}`, below: new Map() }
  // A file of endlessly new element names is read all the same, without keeping each.
  if (above.below.size < 1_000) above.below.set(local, node)
  return node
}

/** A record opening at the tag the parser has just read (its start is that tag's "<"). */
function opened(parser: SaxesParser, text: string): Node {
  return node(parser.line, text.lastIndexOf('<', parser.position - 1))
}

/**
 * XML bytes as text, in the encoding its declaration names (UTF-8 when it names none), and how: a
 * byte that is not the UTF-8 the file claims is read as Windows-1252 and said so, never replaced
 * silently.
 */
export function decodeXml(bytes: Uint8Array): { text: string; encoding: string; how: string } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer[0] === 0xff && buffer[1] === 0xfe)
    return { text: iconv.decode(buffer.subarray(2), 'utf-16le'), encoding: 'utf-16le', how: 'byte order mark' }
  if (buffer[0] === 0xfe && buffer[1] === 0xff)
    return { text: iconv.decode(buffer.subarray(2), 'utf-16be'), encoding: 'utf-16be', how: 'byte order mark' }
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(buffer.subarray(0, 200).toString('latin1'))?.[1]
  const encoding = declared && iconv.encodingExists(declared) ? declared.toLowerCase() : 'utf-8'
  if (!/^utf-?8$/i.test(encoding)) return { text: decodeAs(buffer, encoding), encoding, how: 'XML declaration' }
  const decoded = decodeUtf8Strictly(buffer)
  if (decoded.notUtf8 === 0) return { text: decoded.text, encoding, how: declared ? 'XML declaration' : 'XML default' }
  const line = 1 + countNewlines(buffer, decoded.firstAt as number)
  return {
    text: decoded.text,
    encoding,
    how: `${declared ? 'XML declaration' : 'XML default'}; ${decoded.notUtf8} byte(s) are not UTF-8 (the first on line ${line}) and were read as Windows-1252`
  }
}

function countNewlines(buffer: Buffer, to: number): number {
  let n = 0
  for (let i = buffer.indexOf(10); i >= 0 && i < to; i = buffer.indexOf(10, i + 1)) n++
  return n
}

/** Signed decimal text of an amount and its credit/debit mark ("500.00", "DBIT" → "-500.00"); null when the amount is not a plain decimal or the mark is neither CRDT nor DBIT. */
function signed(amount: string | null, mark: string | null): string | null {
  if (amount === null || !/^\d+(\.\d+)?$/.test(amount)) return null
  if (mark === 'DBIT') return `-${amount}`
  return mark === 'CRDT' ? amount : null
}

/** Why an amount and its mark do not read, in words; null when they do. */
function amountWhy(amount: string | null, mark: string | null, where: string): string | null {
  if (amount === null) return `${where} states no amount`
  if (!/^\d+(\.\d+)?$/.test(amount)) return `${where}'s amount "${amount}" is not a decimal`
  if (mark === null) return `${where} states no CdtDbtInd: whether it is money in or out cannot be read`
  if (mark !== 'CRDT' && mark !== 'DBIT') return `${where}'s CdtDbtInd "${mark}" is neither CRDT nor DBIT`
  return null
}

/** YYYY-MM-DD of a Dt or DtTm (the bank's own day, no time zone applied). */
function day(text: string | null): string | null {
  return text && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null
}

/** A statement being read: its own values and balances, and the lines of its entries read so far (each entry is read as it closes, so no entry's values outlive it). */
interface OpenStatement {
  stmt: Node
  balances: Node[]
  lines: BankLine[]
  notes: BankStatement['notes']
  /** The first entry's currency, the statement's when neither the account nor a balance states one. */
  entryCurrency: string | null
}

/** Every statement (Stmt, Rpt or Ntfctn) of a CAMT document. */
export function readCamt(text: string, name: string): BankStatement[] {
  const parser = new SaxesParser({ xmlns: false, position: true })
  const statements: OpenStatement[] = []
  /** Each open element's path below the innermost record open when it opened (RECORD_PATH for a record itself). */
  const paths: PathNode[] = []
  const locals: string[] = []
  let stmt: OpenStatement | null = null
  let stmtDepth = -1
  let balance: Node | null = null
  let balanceDepth = -1
  let entry: { entry: Node; details: Node[] } | null = null
  let entryDepth = -1
  let detail: Node | null = null
  let detailDepth = -1
  /** The innermost record open (a detail, an entry, a balance, a statement); null outside a statement. */
  let record: Node | null = null
  let textBuffer = ''
  let failure: { line: number; column: number; message: string } | null = null
  /** Where each entry the parser opened starts, and those it found outside a statement's entries. */
  const seen = new Set<number>()
  const misplaced: { line: number; start: number; statement: OpenStatement | null }[] = []
  const raw = (n: Node): (() => string) => {
    const { start, end } = n
    return () => text.slice(start, end).replace(/>\s+</g, '><')
  }
  parser.on('error', (error) => {
    failure ??= { line: parser.line, column: parser.column, message: error.message.replace(/^\d+:\d+: /, '') }
  })
  parser.on('opentag', (tag) => {
    const local = tag.name.slice(tag.name.indexOf(':') + 1)
    const depth = locals.length
    locals.push(local)
    textBuffer = ''
    if ((local === 'Stmt' || local === 'Rpt' || local === 'Ntfctn') && stmt === null) {
      stmt = { stmt: opened(parser, text), balances: [], lines: [], notes: [], entryCurrency: null }
      stmtDepth = depth
      statements.push(stmt)
      record = stmt.stmt
    } else if (stmt && local === 'Bal' && depth === stmtDepth + 1) {
      balance = opened(parser, text)
      balanceDepth = depth
      stmt.balances.push(balance)
      record = balance
    } else if (stmt && local === 'Ntry' && depth === stmtDepth + 1) {
      entry = { entry: opened(parser, text), details: [] }
      entryDepth = depth
      record = entry.entry
      seen.add(entry.entry.start)
    } else if (local === 'Ntry') {
      // An entry where no statement lists its entries: never a line silently lost.
      const at = opened(parser, text)
      seen.add(at.start)
      misplaced.push({ line: at.line, start: at.start, statement: stmt })
    } else if (entry && local === 'TxDtls') {
      detail = opened(parser, text)
      detailDepth = depth
      entry.details.push(detail)
      record = detail
    }
    const path =
      record === null || depth === stmtDepth || depth === balanceDepth || depth === entryDepth || depth === detailDepth
        ? RECORD_PATH
        : pathBelow(paths[depth - 1] ?? RECORD_PATH, local)
    paths.push(path)
    // An amount's currency, kept as "<path>@Ccy" on whichever record holds it.
    const ccy = tag.attributes['Ccy']
    if (typeof ccy === 'string' && record) record.values.set(`${path.key}@Ccy`, ccy)
  })
  parser.on('text', (t) => {
    textBuffer += t
  })
  parser.on('closetag', () => {
    const depth = locals.length - 1
    const value = textBuffer.trim()
    textBuffer = ''
    const local = locals[depth] as string
    if (value !== '' && record) {
      const key = (paths[depth] as PathNode).key
      if (local === 'Ustrd' || local === 'AddtlTxInf' || local === 'AddtlNtryInf') record.texts.push(value)
      if (!record.values.has(key)) record.values.set(key, value)
    }
    if (depth === detailDepth && detail && entry) {
      detail.end = parser.position
      detail = null
      detailDepth = -1
      record = entry.entry
    } else if (depth === entryDepth && entry && stmt) {
      entry.entry.end = parser.position
      readEntry(stmt, entry.entry, entry.details, raw)
      entry = null
      entryDepth = -1
      record = stmt.stmt
    } else if (depth === balanceDepth && stmt) {
      balance = null
      balanceDepth = -1
      record = stmt.stmt
    } else if (depth === stmtDepth && stmt) {
      stmt.stmt.end = parser.position
      stmt = null
      stmtDepth = -1
      record = null
    }
    locals.pop()
    paths.pop()
  })
  parser.write(text).close()
  if (failure !== null) {
    const f = failure as { line: number; column: number; message: string }
    const cut = /unclosed|unexpected end|incomplete/i.test(f.message)
    throw new AppError(
      cut ? 'truncated_file' : 'malformed_xml',
      cut
        ? `${name} ends before its XML does (line ${f.line}): the file was cut short. Download the statement again.`
        : `${name} is not well-formed XML at line ${f.line}, column ${f.column}: ${f.message}.`
    )
  }
  // Every "<Ntry" the bytes hold is a line or a note: one the parser did not read as an entry of a statement is a line not read.
  const lost = [...misplaced]
  const lineAt = lineCounter(text)
  for (const m of text.matchAll(/<(?:[A-Za-z_][\w.-]*:)?Ntry[\s>]/g))
    if (!seen.has(m.index)) lost.push({ line: lineAt(m.index), start: m.index, statement: null })
  if (lost.length > 0 && statements.length > 0) {
    for (const l of lost) {
      const home =
        l.statement ?? ((statements.find((s) => s.stmt.start <= l.start && l.start < s.stmt.end) ?? statements[0]) as OpenStatement)
      const close = text.indexOf('Ntry>', l.start + 5)
      const rawText = text.slice(l.start, close < 0 ? Math.min(text.length, l.start + 400) : close + 5)
      home.lines.push(
        lineNotRead(
          l.line,
          () => rawText.replace(/>\s+</g, '><').slice(0, 400),
          'this <Ntry> is not among the entries of a statement (Stmt, Rpt or Ntfctn): it could not be read as one'
        )
      )
    }
    for (const s of statements) s.lines.sort((a, b) => a.line - b.line)
  }
  return statements.map(toStatement)
}

/** A balance of the statement by its code (OPBD, CLBD, …): signed amount, currency and day. */
function balanceOf(s: OpenStatement, ...codes: string[]): { amount: string | null; currency: string | null; day: string | null } | null {
  for (const code of codes) {
    const b = s.balances.find((n) => first(n, 'Tp/CdOrPrtry/Cd', 'Tp/CdOrPrtry/Prtry') === code)
    if (b)
      return {
        amount: signed(first(b, 'Amt'), first(b, 'CdtDbtInd')),
        currency: first(b, 'Amt@Ccy'),
        day: day(first(b, 'Dt/Dt', 'Dt/DtTm'))
      }
  }
  return null
}

/** The statement's currency: its account's, else its opening or closing balance's, else its first entry's. */
function currencyOf(s: OpenStatement): string | null {
  return first(s.stmt, 'Acct/Ccy') ?? balanceOf(s, 'OPBD', 'PRCD')?.currency ?? balanceOf(s, 'CLBD')?.currency ?? s.entryCurrency
}

/** One entry as it closes: a booked one as its line (a batch as one line per transaction, checked against the entry), any other listed apart. */
function readEntry(s: OpenStatement, entry: Node, details: Node[], raw: (n: Node) => () => string): void {
  s.entryCurrency ??= first(entry, 'Amt@Ccy')
  const currency = currencyOf(s)
  const { lines, notes } = s
  const status = first(entry, 'Sts/Cd', 'Sts/Prtry', 'Sts')
  const amount = signed(first(entry, 'Amt'), first(entry, 'CdtDbtInd'))
  // An entry is booked in its account's currency: one in another cannot be this statement's line as it stands.
  const entryCurrency = first(entry, 'Amt@Ccy')
  const otherCurrency =
    entryCurrency !== null && currency !== null && entryCurrency !== currency
      ? `the entry's amount is in ${entryCurrency}, the statement's currency is ${currency}`
      : null
  const booked = day(first(entry, 'BookgDt/Dt', 'BookgDt/DtTm'))
  const valued = day(first(entry, 'ValDt/Dt', 'ValDt/DtTm'))
  const additional = first(entry, 'AddtlNtryInf')
  const entryText = [additional, ...entry.texts.filter((t) => t !== additional)].filter(Boolean).join(' ')
  if (status === null || !['BOOK', 'PDNG', 'INFO', 'FUTR'].includes(status)) {
    // Booked or not, the entry does not say: never guessed either way, it is a line not read, with its text.
    lines.push(
      lineNotRead(
        entry.line,
        raw(entry),
        status === null
          ? 'the entry states no status (Sts): whether it is booked or pending is not known'
          : `the entry's status "${status}" is none of BOOK, PDNG, INFO or FUTR: whether it is booked is not known`
      )
    )
    return
  }
  if (status !== 'BOOK') {
    // Pending (PDNG), information-only (INFO) and future (FUTR) entries are not on the account yet: listed apart, never lines.
    notes.push({
      line: entry.line,
      reason:
        `${status === 'PDNG' ? 'pending, not yet booked' : `status ${status ?? 'not stated'}, not booked`}: ${amount ?? first(entry, 'Amt') ?? '?'} ${first(entry, 'Amt@Ccy') ?? ''} ${valued ?? booked ?? ''} ${first(entry, 'AcctSvcrRef', 'NtryRef') ?? ''} ${entryText}`
          .replace(/\s+/g, ' ')
          .trim()
    })
    return
  }
  const reversal = first(entry, 'RvslInd') === 'true'
  const base = {
    bookingDate: booked ?? valued ?? first(entry, 'BookgDt/Dt', 'BookgDt/DtTm') ?? '(none)',
    valueDate: valued,
    balanceAfter: null
  }
  if (details.length <= 1) {
    const d = details[0] ?? node(entry.line)
    const line = detailLine(d, entry, amount, base, reversal, entryText, currency, raw(entry))
    line.why = otherCurrency ?? amountWhy(first(entry, 'Amt'), first(entry, 'CdtDbtInd'), 'the entry') ?? undefined
    if (otherCurrency) line.amount = '(none)'
    lines.push(line)
    return
  }
  // A batch: each detail is a line with its own amount; their sum must be the entry's.
  let sum = 0n
  let every = true
  for (const [k, d] of details.entries()) {
    const ownAmount = first(d, 'Amt', 'AmtDtls/TxAmt/Amt')
    const ownMark = first(d, 'CdtDbtInd') ?? first(entry, 'CdtDbtInd')
    const own = otherCurrency ? null : signed(ownAmount, ownMark)
    const line = detailLine(d, entry, own, base, reversal, entryText, currency, raw(d))
    if (own === null) {
      every = false
      line.amount = '(none)'
      line.why =
        otherCurrency ??
        (ownAmount === null
          ? `transaction ${k + 1} of the batch booked on line ${entry.line} states no amount of its own`
          : (amountWhy(ownAmount, ownMark, `transaction ${k + 1} of the batch booked on line ${entry.line}`) ?? undefined))
    } else sum += cents(own)
    lines.push(line)
  }
  if (amount !== null && every && sum !== cents(amount))
    notes.push({
      line: entry.line,
      reason: `batch of ${details.length}: its transactions add to ${decimal(sum)}, the entry says ${amount}`
    })
  else
    notes.push({
      line: entry.line,
      reason: `batch of ${details.length} transactions, ${amount ?? '?'} ${currency ?? ''}, split into its transactions`.trim()
    })
}

function toStatement(s: OpenStatement): BankStatement {
  const account = first(s.stmt, 'Acct/Id/IBAN', 'Acct/Id/Othr/Id', 'Acct/Id/PrtryAcct/Id')
  const currency = currencyOf(s)
  const balanceProblems: { line: number; message: string }[] = []
  /** A balance the statement can be proved by: in its currency, with an amount and a credit/debit mark that read. */
  const usable = (codes: string[], name: string): ReturnType<typeof balanceOf> => {
    const b = balanceOf(s, ...codes)
    const n = s.balances.find((x) => codes.includes(first(x, 'Tp/CdOrPrtry/Cd', 'Tp/CdOrPrtry/Prtry') ?? ''))
    if (!b || !n) return null
    if (b.currency !== null && currency !== null && b.currency !== currency) {
      balanceProblems.push({
        line: n.line,
        message: `the ${name} balance is in ${b.currency}, the statement's currency is ${currency}: it is not this statement's balance`
      })
      return null
    }
    const why = amountWhy(first(n, 'Amt'), first(n, 'CdtDbtInd'), `the ${name} balance`)
    if (why) {
      balanceProblems.push({ line: n.line, message: why })
      return null
    }
    return b
  }
  const opening = usable(['OPBD', 'PRCD'], 'opening')
  const closing = usable(['CLBD'], 'closing')
  const from = day(first(s.stmt, 'FrToDt/FrDtTm', 'FrToDt/FrDt')) ?? opening?.day ?? null
  const to = day(first(s.stmt, 'FrToDt/ToDtTm', 'FrToDt/ToDt')) ?? closing?.day ?? null
  return {
    account,
    currency,
    opening: opening?.amount ?? null,
    closing: closing?.amount ?? null,
    lines: s.lines,
    notes: s.notes,
    balanceProblems,
    label: `account ${account ?? '(not stated)'}${currency ? ` ${currency}` : ''}${from && to ? `, ${from} to ${to}` : ''}`
  }
}

function detailLine(
  d: Node,
  entry: Node,
  amount: string | null,
  base: { bookingDate: string; valueDate: string | null; balanceAfter: null },
  reversal: boolean,
  entryText: string,
  currency: string | null,
  raw: () => string
): BankLine {
  const endToEnd = first(d, 'Refs/EndToEndId')
  const instruction = first(d, 'Refs/InstrId')
  const servicer = first(d, 'Refs/AcctSvcrRef') ?? first(entry, 'AcctSvcrRef')
  const structured = first(d, 'RmtInf/Strd/CdtrRefInf/Ref')
  const credit = (first(d, 'CdtDbtInd') ?? first(entry, 'CdtDbtInd')) !== 'DBIT'
  // The other party: the debtor of money in, the creditor of money out.
  const party = credit
    ? first(d, 'RltdPties/Dbtr/Nm', 'RltdPties/Dbtr/Pty/Nm', 'RltdPties/UltmtDbtr/Nm')
    : first(d, 'RltdPties/Cdtr/Nm', 'RltdPties/Cdtr/Pty/Nm', 'RltdPties/UltmtCdtr/Nm')
  const references = [endToEnd, instruction, structured, first(d, 'Refs/TxId'), first(d, 'Refs/PmtInfId')].filter(
    (r): r is string => r !== null && !/^NOTPROVIDED$/i.test(r)
  )
  // A foreign amount is kept in words: the instructed amount in its own currency beside the booked one.
  const instructed = first(d, 'AmtDtls/InstdAmt/Amt')
  const instructedCurrency = first(d, 'AmtDtls/InstdAmt/Amt@Ccy')
  const foreign =
    instructed && instructedCurrency && instructedCurrency !== currency ? `instructed ${instructedCurrency} ${instructed}` : null
  const text = [reversal ? 'Reversal:' : null, ...d.texts, d.texts.length === 0 ? entryText : null, foreign].filter(Boolean).join(' ')
  // Written out, not spread from `base`: a spread object is built the slow way, and a file has a hundred thousand of these.
  return {
    bookingDate: base.bookingDate,
    valueDate: base.valueDate,
    balanceAfter: null,
    line: d.line,
    amount: amount ?? first(d, 'Amt', 'AmtDtls/TxAmt/Amt') ?? '(none)',
    bankId: servicer,
    reference: references[0] ?? null,
    otherReferences: references.slice(1),
    description: text || null,
    counterparty: party,
    text: raw,
    why: amount === null ? 'the entry states no amount that reads as a decimal' : undefined
  }
}

/** Decimal text → hundredths-or-finer as a bigint at 6 decimals, for exact batch sums. */
function cents(text: string): bigint {
  const negative = text.startsWith('-')
  const [w = '0', f = ''] = text.replace('-', '').split('.')
  const v = BigInt(w + f.padEnd(6, '0').slice(0, 6))
  return negative ? -v : v
}

function decimal(v: bigint): string {
  const negative = v < 0n
  const digits = (negative ? -v : v).toString().padStart(7, '0')
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6).replace(/0{1,4}$/, '')}`
}
