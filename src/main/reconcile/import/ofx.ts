// OFX/QFX (1.x SGML with unclosed tags, 2.x XML) → bank statements, one per account: the header's character set honoured, LEDGERBAL the closing balance, FITID kept as the bank's id but never trusted alone as a line's key.
import iconv from 'iconv-lite'
import type { BankLine, BankStatement } from './bank-statement'
import { calendarDay } from './dates'
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
const unescape = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (ENTITIES[e.toLowerCase()] ?? whole)
  )

/**
 * The OFX element tree. A tag followed by text is a leaf whether or not it is closed (SGML leaves are
 * not); a tag followed by another tag opens an aggregate, closed by its end tag (an end tag closes
 * every aggregate opened inside it that was left open).
 */
function tree(text: string): OfxNode {
  const root: OfxNode = { tag: '', line: 1, start: 0, end: text.length, value: null, children: [] }
  const stack: OfxNode[] = [root]
  const body = text.search(/<OFX>/i)
  let line = 1 + countLines(text, 0, Math.max(0, body))
  let i = Math.max(0, body)
  const TAG = /<(\/?)([A-Za-z0-9_.]+)[^>]*>/g
  while (i < text.length) {
    TAG.lastIndex = i
    const m = TAG.exec(text)
    if (!m) break
    line += countLines(text, i, m.index)
    const closing = m[1] === '/'
    const tag = (m[2] as string).toUpperCase()
    const afterTag = m.index + m[0].length
    if (closing) {
      const at = findOpen(stack, tag)
      if (at > 0) {
        for (let k = stack.length - 1; k >= at; k--) (stack[k] as OfxNode).end = afterTag
        stack.length = at
      }
      i = afterTag
      continue
    }
    const next = text.indexOf('<', afterTag)
    const valueEnd = next < 0 ? text.length : next
    const value = text.slice(afterTag, valueEnd).trim()
    const parent = stack[stack.length - 1] as OfxNode
    if (value !== '') {
      parent.children.push({
        tag,
        line,
        start: m.index,
        end: valueEnd,
        value: value.includes('&') ? unescape(value) : value,
        children: NO_CHILDREN
      })
      line += countLines(text, afterTag, valueEnd)
      i = valueEnd + closedBy(text, valueEnd, tag)
      continue
    }
    const aggregate: OfxNode = { tag, line, start: m.index, end: text.length, value: null, children: [] }
    parent.children.push(aggregate)
    stack.push(aggregate)
    i = afterTag
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

/** YYYYMMDD[HHMMSS…][TZ] → YYYY-MM-DD, the day the bank states; null when it is not a day. */
function ofxDay(text: string | null): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(text ?? '')
  return m ? calendarDay(Number(m[1]), Number(m[2]), Number(m[3])) : null
}

/** An OFX amount as decimal text: "+1,234.56" or "-12,50" (some banks write a decimal comma) → "1234.56", "-12.50"; null when it is not one. */
function ofxAmount(text: string | null): string | null {
  if (text === null) return null
  let t = text.trim().replace(/^\+/, '')
  if (/^-?\d+,\d{1,3}$/.test(t)) t = t.replace(',', '.')
  else t = t.replace(/,(?=\d{3}(?:[.,]|$))/g, '')
  if (/^-?\.\d+$/.test(t)) t = t.replace('.', '0.')
  return /^-?\d+(\.\d+)?$/.test(t) ? t : null
}

/** Every account statement of an OFX file (bank and credit card). */
export function readOfx(text: string): BankStatement[] {
  const root = tree(text)
  const statements: BankStatement[] = []
  for (const rs of [...all(root, 'STMTRS'), ...all(root, 'CCSTMTRS')]) {
    const from = rs.children.find((c) => c.tag === 'BANKACCTFROM' || c.tag === 'CCACCTFROM')
    const account = leaf(from, 'ACCTID')
    const currency = leaf(rs, 'CURDEF')?.toUpperCase() ?? null
    const list = rs.children.find((c) => c.tag === 'BANKTRANLIST')
    const lines: BankLine[] = []
    for (const t of list ? all(list, 'STMTTRN') : []) {
      const posted = leaf(t, 'DTPOSTED')
      const amountText = leaf(t, 'TRNAMT')
      const amount = ofxAmount(amountText)
      const fitid = leaf(t, 'FITID')
      const checknum = leaf(t, 'CHECKNUM')
      const refnum = leaf(t, 'REFNUM')
      const name = leaf(t, 'NAME', 'PAYEE/NAME')
      const memo = leaf(t, 'MEMO')
      const type = leaf(t, 'TRNTYPE')
      // A line in another currency than the account's says so (its amount stays the one booked).
      const own = leaf(t, 'CURRENCY/CURSYM', 'ORIGCURRENCY/CURSYM')
      const day = ofxDay(posted)
      lines.push({
        line: t.line,
        bookingDate: day ?? posted ?? '(none)',
        valueDate: ofxDay(leaf(t, 'DTAVAIL')),
        amount: amount ?? amountText ?? '(none)',
        bankId: fitid,
        reference: refnum ?? checknum ?? null,
        otherReferences: [checknum, refnum].filter((r): r is string => r !== null),
        description:
          [memo, type && !memo ? type : null, own && own.toUpperCase() !== currency ? `original currency ${own}` : null]
            .filter(Boolean)
            .join(' ') || null,
        counterparty: name,
        text: () =>
          text
            .slice(t.start, t.end)
            .replace(/\s*\n\s*/g, ' ')
            .trim(),
        balanceAfter: null,
        why:
          day === null
            ? `DTPOSTED ${posted === null ? 'is missing' : `"${posted}" is not a day (YYYYMMDD)`}`
            : amount === null
              ? `TRNAMT ${amountText === null ? 'is missing' : `"${amountText}" is not an amount`}`
              : undefined
      })
    }
    const ledger = rs.children.find((c) => c.tag === 'LEDGERBAL')
    const start = ofxDay(leaf(list, 'DTSTART'))
    const end = ofxDay(leaf(list, 'DTEND'))
    const available = ofxAmount(leaf(rs, 'AVAILBAL/BALAMT'))
    statements.push({
      account,
      currency,
      opening: null,
      closing: ofxAmount(leaf(ledger, 'BALAMT')),
      lines,
      notes:
        available !== null && ledger
          ? [{ line: ledger.line, reason: `available balance ${available} (the ledger balance is the closing)` }]
          : [],
      label: `account ${account ?? '(not stated)'}${currency ? ` ${currency}` : ''}${start && end ? `, ${start} to ${end}` : ''}`
    })
  }
  return statements
}
