// OFX/QFX (1.x SGML with unclosed tags, 2.x XML) → bank statements, one per account: the header's character set honoured, LEDGERBAL the closing balance, FITID kept as the bank's id but never trusted alone as a line's key.
import iconv from 'iconv-lite'
import { lineCounter, lineNotRead, type BankLine, type BankStatement } from './structured'
import { calendarDay } from './dates'
import { decimalTextOf } from './amounts'
import { decodeAs, decodeUtf8Else1252 } from './encoding'

/** OFX bytes as text: 1.x by its header's CHARSET/ENCODING, 2.x by its XML declaration; valid UTF-8 otherwise, else Windows-1252. */
export function decodeOfx(bytes: Uint8Array): { text: string; encoding: string } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const head = buffer.subarray(0, 1024).toString('latin1')
  const charset = /^\s*CHARSET\s*:\s*(\S+)/im.exec(head)?.[1]
  const encodingHeader = /^\s*ENCODING\s*:\s*(\S+)/im.exec(head)?.[1]
  const declared = /<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/i.exec(head)?.[1]
  let encoding: string | null = null
  if (declared && iconv.encodingExists(declared)) encoding = declared.toLowerCase()
  else if (encodingHeader && /utf-?8/i.test(encodingHeader)) encoding = 'utf-8'
  else if (charset && /^\d{3,4}$/.test(charset)) encoding = `windows-${charset}`
  else if (charset && /8859-?1\b|latin/i.test(charset)) encoding = 'windows-1252'
  if (encoding && iconv.encodingExists(encoding)) return { text: decodeAs(buffer, encoding), encoding }
  return decodeUtf8Else1252(buffer)
}

/** An aggregate or a leaf of the OFX tree, with the line it starts on. */
interface OfxNode {
  tag: string
  line: number
  start: number
  end: number
  value: string | null
  children: OfxNode[]
}

/** A leaf's children: one empty list shared by every leaf (a file has a million). */
const NO_CHILDREN: OfxNode[] = []

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }
/** A leaf's text with its entities resolved; a numeric one outside Unicode (or a surrogate) stays as written, never an error. */
const unescape = (text: string): string =>
  text.replace(/&(#x[0-9a-f]{1,8}|#\d{1,10}|\w{1,10});/gi, (whole, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? whole
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole
  })

/** Deepest nesting read as such (OFX's own is under a dozen levels). */
const MAX_DEPTH = 64

/** Whether the character code is one a tag name starts with (OFX names are letters, then letters, digits, "." and "_"). */
const nameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const nameChar = (c: number): boolean => nameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 95

/** A tag at `at`: "<NAME …>" or "</NAME …>", with no "<" or line break before its ">"; null when the "<" there starts no tag (text such as "Refund <3 days"). */
function tagAt(text: string, at: number): { closing: boolean; name: string; end: number } | null {
  let k = at + 1
  const closing = text.charCodeAt(k) === 47 /* / */
  if (closing) k++
  if (!nameStart(text.charCodeAt(k))) return null
  const from = k
  while (k < text.length && nameChar(text.charCodeAt(k))) k++
  const name = text.slice(from, k)
  // Attributes (OFX has none, XML may) run to ">"; a "<" or a line break first means it was text after all.
  for (; k < text.length; k++) {
    const c = text.charCodeAt(k)
    if (c === 62 /* > */) return { closing, name, end: k + 1 }
    if (c === 60 /* < */ || c === 10) return null
  }
  return null
}

/** The next tag at or after `from`, or null: each "<" is looked at once, so text full of "<" is read in one pass. */
function nextTag(text: string, from: number): { at: number; closing: boolean; name: string; end: number } | null {
  for (let at = text.indexOf('<', from); at >= 0; at = text.indexOf('<', at + 1)) {
    const tag = tagAt(text, at)
    if (tag) return { at, ...tag }
  }
  return null
}

/**
 * The OFX element tree. A tag followed by text is a leaf whether or not it is closed (SGML leaves are
 * not); a tag followed by another tag opens an aggregate, closed by its end tag (an end tag closes
 * every aggregate opened inside it that was left open, and an aggregate opening while one of its
 * name is open closes that one first: OFX never nests an aggregate in itself, so a lost
 * "</STMTTRN>" costs no transaction after it). A "<" that starts no tag is text.
 */
function tree(text: string): OfxNode {
  const root: OfxNode = { tag: '', line: 1, start: 0, end: text.length, value: null, children: [] }
  const stack: OfxNode[] = [root]
  /** How many aggregates of each name are open: an end tag or a new aggregate looks along the stack only for a name that is. */
  const opened = new Map<string, number>()
  const closeFrom = (at: number, end: number): void => {
    for (let k = stack.length - 1; k >= at; k--) {
      const node = stack[k] as OfxNode
      node.end = end
      opened.set(node.tag, (opened.get(node.tag) ?? 1) - 1)
    }
    stack.length = at
  }
  const body = text.search(/<OFX>/i)
  let line = 1 + countLines(text, 0, Math.max(0, body))
  let i = Math.max(0, body)
  for (let m = nextTag(text, i); m !== null; m = nextTag(text, i)) {
    line += countLines(text, i, m.at)
    const tag = m.name.toUpperCase()
    if (m.closing) {
      if ((opened.get(tag) ?? 0) > 0) closeFrom(findOpen(stack, tag), m.end)
      i = m.end
      continue
    }
    const next = nextTag(text, m.end)
    const valueEnd = next === null ? text.length : next.at
    const value = text.slice(m.end, valueEnd).trim()
    if (value !== '') {
      ;(stack[stack.length - 1] as OfxNode).children.push({
        tag,
        line,
        start: m.at,
        end: valueEnd,
        value: value.includes('&') ? unescape(value) : value,
        children: NO_CHILDREN
      })
      line += countLines(text, m.end, valueEnd)
      i = valueEnd + closedBy(text, valueEnd, tag)
      continue
    }
    if ((opened.get(tag) ?? 0) > 0) closeFrom(findOpen(stack, tag), m.at)
    const aggregate: OfxNode = { tag, line, start: m.at, end: text.length, value: null, children: [] }
    ;(stack[stack.length - 1] as OfxNode).children.push(aggregate)
    // OFX nests a few levels deep: a file nesting deeper is read flat beyond MAX_DEPTH, never by a recursion as deep as the file.
    if (stack.length < MAX_DEPTH) {
      stack.push(aggregate)
      opened.set(tag, (opened.get(tag) ?? 0) + 1)
    }
    i = m.end
  }
  return root
}

/** The length of the end tag at `at` when it closes `tag` (a closed leaf's end tag belongs to it), else 0. */
function closedBy(text: string, at: number, tag: string): number {
  if (text.charCodeAt(at + 1) !== 47 /* / */ || text.slice(at + 2, at + 2 + tag.length).toUpperCase() !== tag) return 0
  let k = at + 2 + tag.length
  while (k < text.length && (text[k] === ' ' || text[k] === '\t' || text[k] === '\r' || text[k] === '\n')) k++
  return text[k] === '>' ? k + 1 - at : 0
}

function countLines(text: string, from: number, to: number): number {
  let n = 0
  for (let k = text.indexOf('\n', from); k >= 0 && k < to; k = text.indexOf('\n', k + 1)) n++
  return n
}

function findOpen(stack: readonly OfxNode[], tag: string): number {
  for (let k = stack.length - 1; k > 0; k--) if ((stack[k] as OfxNode).tag === tag) return k
  return -1
}

function all(node: OfxNode, tag: string, out: OfxNode[] = []): OfxNode[] {
  for (const c of node.children) {
    if (c.tag === tag) out.push(c)
    else if (c.value === null) all(c, tag, out)
  }
  return out
}

function leaf(node: OfxNode | undefined, ...tags: string[]): string | null {
  if (!node) return null
  for (const tag of tags) {
    const slash = tag.indexOf('/')
    const name = slash < 0 ? tag : tag.slice(0, slash)
    let child: OfxNode | undefined
    for (const c of node.children)
      if (c.tag === name) {
        child = c
        break
      }
    if (!child) continue
    if (slash >= 0) {
      const v = leaf(child, tag.slice(slash + 1))
      if (v) return v
    } else if (child.value) return child.value
  }
  return null
}

/** What an OFX file with no bank or card statement is instead, in words ("is …"): an investment statement, the bank's error reply, or nothing. */
export function withoutStatement(text: string): string {
  const root = tree(text)
  if (all(root, 'INVSTMTRS').length > 0)
    return 'is an OFX investment account statement (INVSTMTRS), with no bank or card statement in it: Ledgerline reconciles bank and card accounts'
  for (const status of all(root, 'STATUS'))
    if (leaf(status, 'SEVERITY')?.toUpperCase() === 'ERROR') {
      const message = leaf(status, 'MESSAGE')
      return `is the bank's OFX error reply, with no statement in it (code ${leaf(status, 'CODE') ?? 'not stated'}${message ? `: "${message}"` : ''}): download the statement again`
    }
  return 'is an OFX file with no bank or card statement in it (no STMTRS or CCSTMTRS)'
}

/** YYYYMMDD[HHMMSS…][TZ] → YYYY-MM-DD, the day the bank states; null when it is not a day. */
function ofxDay(text: string | null): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(text ?? '')
  return m ? calendarDay(Number(m[1]), Number(m[2]), Number(m[3])) : null
}

/** Where each "<STMTTRN>" of the text starts: counted from the bytes, apart from the tree, so a transaction the tree lost is found. */
function transactionStarts(text: string): number[] {
  const starts: number[] = []
  for (const m of text.matchAll(/<STMTTRN[ \t\r\n]*>/gi)) starts.push(m.index)
  return starts
}

/**
 * Every account statement of an OFX file (bank and credit card). Amounts follow the one rule of
 * every format (decimalTextOf), in the statement's currency (CURDEF, else `currency`). Every
 * "<STMTTRN>" of the file is a line of a statement: one the tree could not read as a transaction
 * is a line not read, with its text, in the statement it sits in.
 */
export function readOfx(text: string, currency: string | null = null): BankStatement[] {
  const root = tree(text)
  const statements: BankStatement[] = []
  const spans: { start: number; end: number; statement: BankStatement }[] = []
  const read = new Set<number>()
  const readSpans: (readonly [number, number])[] = []
  for (const rs of [...all(root, 'STMTRS'), ...all(root, 'CCSTMTRS')]) {
    // An empty aggregate is no statement: a stray "<" in an end tag ("</<STMTRS>") opens one that holds nothing.
    if (rs.children.length === 0) continue
    const from = rs.children.find((c) => c.tag === 'BANKACCTFROM' || c.tag === 'CCACCTFROM')
    const account = leaf(from, 'ACCTID')
    const statementCurrency = leaf(rs, 'CURDEF')?.toUpperCase() ?? currency
    const list = rs.children.find((c) => c.tag === 'BANKTRANLIST')
    const lines: BankLine[] = []
    for (const t of list ? all(list, 'STMTTRN') : []) {
      read.add(t.start)
      readSpans.push([t.start, t.end])
      const posted = leaf(t, 'DTPOSTED')
      const amountText = leaf(t, 'TRNAMT')
      const amount = amountText === null ? null : decimalTextOf(amountText, leaf(t, 'CURRENCY/CURSYM')?.toUpperCase() ?? statementCurrency)
      const fitid = leaf(t, 'FITID')
      const checknum = leaf(t, 'CHECKNUM')
      const refnum = leaf(t, 'REFNUM')
      const name = leaf(t, 'NAME', 'PAYEE/NAME')
      const memo = leaf(t, 'MEMO')
      const type = leaf(t, 'TRNTYPE')
      // OFX 5.2: CURRENCY says the line's amount is in that currency, not CURDEF; ORIGCURRENCY that it was converted
      // to CURDEF from that one (the amount stays the one booked, and the description says where it came from).
      const inCurrency = leaf(t, 'CURRENCY/CURSYM')?.toUpperCase() ?? null
      const own = inCurrency ?? leaf(t, 'ORIGCURRENCY/CURSYM')
      const day = ofxDay(posted)
      lines.push({
        line: t.line,
        bookingDate: day ?? posted ?? '(none)',
        valueDate: ofxDay(leaf(t, 'DTAVAIL')),
        // An amount the one rule does not read is no amount: the line is not read, and says why.
        amount: amount !== null && 'value' in amount ? amount.value : '(none)',
        bankId: fitid,
        reference: refnum ?? checknum ?? null,
        otherReferences: [checknum, refnum].filter((r): r is string => r !== null),
        description:
          [
            memo,
            type && !memo ? type : null,
            own && inCurrency === null && own.toUpperCase() !== statementCurrency ? `original currency ${own}` : null
          ]
            .filter(Boolean)
            .join(' ') || null,
        counterparty: name,
        text: () => oneLine(text.slice(t.start, t.end)),
        balanceAfter: null,
        currency: inCurrency !== null && inCurrency !== statementCurrency ? inCurrency : null,
        why:
          day === null
            ? `DTPOSTED ${posted === null ? 'is missing' : `"${posted}" is not a day (YYYYMMDD)`}`
            : amount === null
              ? 'TRNAMT is missing'
              : 'why' in amount
                ? `TRNAMT: ${amount.why}`
                : undefined
      })
    }
    // LEDGERBAL follows the transaction list: where a file lost its </BANKTRANLIST>, the list holds it.
    const ledger = rs.children.find((c) => c.tag === 'LEDGERBAL') ?? list?.children.find((c) => c.tag === 'LEDGERBAL')
    const start = ofxDay(leaf(list, 'DTSTART'))
    const end = ofxDay(leaf(list, 'DTEND'))
    const balanceOf = (value: string | null): string | null => {
      const d = value === null ? null : decimalTextOf(value, statementCurrency)
      return d !== null && 'value' in d ? d.value : null
    }
    const available = balanceOf(leaf(rs, 'AVAILBAL/BALAMT') ?? leaf(list, 'AVAILBAL/BALAMT'))
    const statement: BankStatement = {
      account,
      currency: statementCurrency,
      opening: null,
      closing: balanceOf(leaf(ledger, 'BALAMT')),
      lines,
      notes:
        available !== null && ledger
          ? [{ line: ledger.line, reason: `available balance ${available} (the ledger balance is the closing)` }]
          : [],
      label: `account ${account ?? '(not stated)'}${statementCurrency ? ` ${statementCurrency}` : ''}${start && end ? `, ${start} to ${end}` : ''}`
    }
    statements.push(statement)
    spans.push({ start: rs.start, end: rs.end, statement })
  }
  // Every "<STMTTRN>" the bytes hold is a line, and so is every "<TRNAMT>" (one a transaction holds whatever happened to its tag):
  // those the tree did not read as a transaction are lines not read, each named with its text.
  const lost: { at: number; end: number; what: string }[] = []
  const NEXT = /<STMTTRN[\s>]|<\/BANKTRANLIST\s*>/gi
  const endOf = (at: number): number => {
    NEXT.lastIndex = at + 1
    const m = NEXT.exec(text)
    return m ? m.index : Math.min(text.length, at + 400)
  }
  for (const at of transactionStarts(text)) if (!read.has(at)) lost.push({ at, end: endOf(at), what: '<STMTTRN>' })
  const covered = [...readSpans, ...lost.map((l) => [l.at, l.end] as const)].sort((a, b) => a[0] - b[0])
  let k = 0
  for (const m of text.matchAll(/<TRNAMT[ \t\r\n]*>/gi)) {
    while (k < covered.length && (covered[k] as readonly [number, number])[1] <= m.index) k++
    const span = covered[k]
    if (span && span[0] <= m.index && m.index < span[1]) continue
    // An amount outside any transaction read: its transaction's tag was lost; its text runs back to the tag before it.
    const from = text.lastIndexOf('<', Math.max(0, text.lastIndexOf('>', m.index - 1)))
    lost.push({ at: Math.max(0, Math.min(m.index, from)), end: endOf(m.index), what: '<TRNAMT>' })
  }
  if (lost.length > 0 && statements.length > 0) {
    const lineAt = lineCounter(text)
    for (const l of lost) {
      const home = spans.find((s) => s.start <= l.at && l.at < s.end)?.statement ?? (statements[0] as BankStatement)
      const raw = text.slice(l.at, Math.min(l.end, l.at + 400))
      home.lines.push(
        lineNotRead(
          lineAt(l.at),
          () => oneLine(raw),
          l.what === '<STMTTRN>'
            ? 'this <STMTTRN> could not be read as a transaction of its account (its tags are not in the order OFX writes them)'
            : 'this <TRNAMT> is in no transaction Ledgerline could read (the <STMTTRN> that should open it is damaged)'
        )
      )
    }
    for (const s of statements) s.lines.sort((a, b) => a.line - b.line)
  }
  return statements
}

/** Text on one line: its line breaks and the spaces around them made one space. */
const oneLine = (raw: string): string => raw.replace(/\s*\n\s*/g, ' ').trim()
