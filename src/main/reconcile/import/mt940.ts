// SWIFT MT940/MT942 statements (SWIFT blocks or bare tags) → bank statements: one per account, its messages chained by their intermediate balances; :61: lines with reversals, references and :86: details (?20–?29 sub-fields or /TAG/ style) read for references and names.
import { lineNotRead, type BankLine, type BankStatement } from './structured'
import { calendarDay, centuryOf, dayNumber } from './dates'

interface Field {
  tag: string
  value: string
  line: number
  text: string
  /** What stands before a :61: tag that does not start its line (a stray character): the line is counted, and not read. */
  displaced?: string
}

/** Up to sixteen characters, a colon among them, then a :61: line's value date, mark, amount and type. */
const DISPLACED_61 = /^([^\n]{0,16}?)(?=\d{6}(?:\d{4})?R?[CD][A-Z]?\d[\d,.]*[A-Z][A-Z0-9]{2}[A-Z0-9 ])/

/** The tagged fields of the text in order, each with its line and its continuation lines; block markers ("{1:…}{4:", "-}") are not fields. */
function fields(text: string): Field[] {
  const out: Field[] = []
  const lines = text.split(/\r\n|\r|\n/)
  let current: Field | null = null
  for (let i = 0; i < lines.length; i++) {
    let raw = lines[i] as string
    // "{1:F01…}{2:…}{4:" may share its line with the first tag.
    const block = /^\{1:[^}]*\}(?:\{2:[^}]*\})?(?:\{3:(?:\{[^}]*\})*\})?\{4:/.exec(raw)
    if (block) raw = raw.slice(block[0].length)
    if (/^-\}/.test(raw) || /^\{5:/.test(raw) || raw === '-') {
      current = null
      continue
    }
    const tag = /^:(\d{2}[A-Z]?):/.exec(raw)
    // A :61: line whose tag a stray character broke (":6<1:", "<:61:"): a transaction's shape after a few characters that
    // hold a colon. Counted as its own line, not read, never taken as text of the field before.
    const displaced = tag ? null : DISPLACED_61.exec(raw)
    if (tag) {
      current = { tag: tag[1] as string, value: raw.slice(tag[0].length), line: i + 1, text: raw }
      out.push(current)
    } else if (displaced && (displaced[1] as string).includes(':')) {
      current = { tag: '61', value: raw.slice(displaced[0].length), line: i + 1, text: raw, displaced: displaced[1] as string }
      out.push(current)
    } else if (current && raw.trim() !== '') {
      current.value += `\n${raw}`
      current.text += `\n${raw}`
    }
  }
  return out
}

/** YYMMDD → YYYY-MM-DD (years 80–99 are 19xx), or null when it is not a day. */
function swiftDay(yymmdd: string): string | null {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(yymmdd)
  if (!m) return null
  return calendarDay(centuryOf(Number(m[1])), Number(m[2]), Number(m[3]))
}

/**
 * "1234,56" → "1234.56"; null when it is not an amount. SWIFT writes digits and one decimal comma, never a
 * thousands separator, so a bank that leaves the comma out of a whole amount ("500") or writes a point
 * instead ("2145.00") is still read one way only.
 */
function swiftAmount(text: string): string | null {
  const m = /^(\d+)(?:[,.](\d*))?$/.exec(text.trim())
  if (!m) return null
  return m[2] ? `${m[1]}.${m[2]}` : (m[1] as string)
}

interface Balance {
  mark: 'C' | 'D'
  day: string | null
  currency: string
  amount: string | null
}

/** A :60a:/:62a:/:64: balance: C or D, YYMMDD, currency, amount. */
function balance(value: string): Balance | null {
  const m = /^([CD])(\d{6})([A-Z]{3})([\d.,]+)/.exec(value.trim())
  if (!m) return null
  const amount = swiftAmount(m[4] as string)
  return {
    mark: m[1] as 'C' | 'D',
    day: swiftDay(m[2] as string),
    currency: m[3] as string,
    amount: amount && (m[1] === 'D' ? `-${amount}` : amount)
  }
}

/** An empty, NONREF or all-zero reference is no reference. */
function realReference(text: string | undefined | null): string | null {
  const t = (text ?? '').trim()
  return t === '' || /^NONREF$/i.test(t) || /^0+$/.test(t) || /^NOTPROVIDED$/i.test(t) ? null : t
}

/** What a :86: says: its free text, references and the other party's name. */
export function readDetails(value: string): { description: string; references: string[]; name: string | null } {
  const flat = value.replace(/\n/g, '')
  // German/SEPA style: "166?00GUTSCHRIFT?20EREF+ABC?21SVWZ+Invoice 4?32JOHN DOE".
  if (/^\d{3}\?\d{2}|^\?\d{2}/.test(flat)) {
    const sub = new Map<number, string>()
    for (const m of flat.matchAll(/\?(\d{2})([^?]*)/g)) sub.set(Number(m[1]), (sub.get(Number(m[1])) ?? '') + (m[2] as string))
    const purpose = [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 60, 61, 62, 63].map((k) => sub.get(k) ?? '').join('')
    const references: string[] = []
    for (const key of ['EREF', 'KREF', 'MREF', 'CRED', 'PREF']) {
      const m = new RegExp(`${key}\\+(.*?)(?=(?:EREF|KREF|MREF|CRED|DEBT|COAM|OAMT|SVWZ|ABWA|ABWE|IBAN|BIC)\\+|$)`).exec(purpose)
      const ref = realReference(m?.[1])
      if (ref) references.push(ref)
    }
    const svwz = /SVWZ\+(.*?)(?=(?:ABWA|ABWE|IBAN|BIC)\+|$)/.exec(purpose)?.[1]
    const name = `${sub.get(32) ?? ''}${sub.get(33) ?? ''}`.trim() || null
    const description = [sub.get(0), svwz ?? purpose]
      .filter((t) => t && t.trim() !== '')
      .join(' ')
      .trim()
    return { description, references, name }
  }
  // "/TAG/value" style (Rabobank, ING, many African banks' host-to-host): /EREF/…/REMI/…/NAME/….
  if (/^\/[A-Z]{2,4}\//.test(flat)) {
    const parts = flat.split(
      /\/(?=(?:EREF|PREF|KREF|MARF|CSID|REMI|NAME|ORDP|BENM|CNTP|IBAN|BIC|ADDR|TRCD|RTRN|PURP|ISDT|ULTC|ULTD|CREF|IREF|OCMT|CHGS|EXCH|BUSP)\/)/
    )
    const tags = new Map<string, string>()
    for (const part of parts) {
      const m = /^\/?([A-Z]{2,4})\/(.*)$/.exec(part)
      if (m) tags.set(m[1] as string, (m[2] as string).replace(/\/+$/, ''))
    }
    const references = ['EREF', 'PREF', 'CREF', 'IREF', 'KREF', 'MARF']
      .map((k) => realReference(tags.get(k)))
      .filter((r): r is string => r !== null)
    // /CNTP/IBAN/BIC/NAME/CITY and /BENM//NAME/…: the name is the first part that is words, not an account or a bank code.
    const party = tags.get('NAME') ?? tags.get('ORDP') ?? tags.get('BENM') ?? tags.get('CNTP') ?? null
    const name = party
      ? (party
          .split('/')
          .find((p) => /[A-Za-z]{2}/.test(p) && !/^[A-Z]{2}\d{2}[A-Z0-9]{8,}$/.test(p) && !/^[A-Z]{6}[A-Z0-9]{2,5}$/.test(p)) ?? null)
      : null
    const remittance = tags
      .get('REMI')
      ?.replace(/^(?:USTD|STRD)\/\//, '')
      .replace(/\//g, ' ')
    return { description: (remittance ?? flat).trim(), references, name: name?.trim() || null }
  }
  return { description: value.replace(/\s*\n\s*/g, ' ').trim(), references: [], name: null }
}

/** A :61: line: value date, entry date, mark (RC/RD reversals), amount, type, customer and bank reference, supplementary details. */
const LINE_61 = /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d[\d,.]*)([A-Z][A-Z0-9]{2}[A-Z0-9 ])(.*)$/

/** Which part of a :61: line LINE_61 could not read, in words. */
function whyNot61(line: string): string {
  const date = /^(\d{6})(\d{4})?/.exec(line)
  if (!date) return `the :61: line does not start with a value date (YYMMDD): "${line.slice(0, 10)}"`
  const after = line.slice(date[0].length)
  const mark = /^(RC|RD|C|D)[A-Z]?/.exec(after)
  if (!mark) return `the :61: line has no debit/credit mark (C, D, RC or RD) after its date: "${after.slice(0, 10)}"`
  const rest = after.slice(mark[0].length)
  const amount = /^\d[\d,.]*/.exec(rest)
  if (!amount) return `the :61: line has no amount after its debit/credit mark: "${rest.slice(0, 10)}"`
  return `the :61: line has no transaction type (a letter and three more, as NTRF) after its amount ${amount[0]}: "${rest.slice(amount[0].length, amount[0].length + 10)}"`
}

function readLine61(field: Field, details: Field | null): BankLine {
  const [first = '', ...rest] = field.value.split('\n')
  const text = details ? `${field.text}\n${details.text}` : field.text
  if (field.displaced !== undefined)
    return lineNotRead(
      field.line,
      () => text,
      `the line holds a :61: transaction, but its tag does not start the line ("${field.text.slice(0, 16)}")`
    )
  const m = LINE_61.exec(first.trim())
  const info = details ? readDetails(details.value) : { description: '', references: [], name: null }
  const base: BankLine = {
    line: field.line,
    bookingDate: first.slice(0, 6) || '(none)',
    valueDate: null,
    amount: '(none)',
    bankId: null,
    reference: null,
    otherReferences: info.references,
    description: info.description || rest.join(' ').trim() || null,
    counterparty: info.name,
    text: () => text,
    balanceAfter: null,
    why: 'the :61: line does not read as date, debit/credit mark, amount and type'
  }
  if (!m) return { ...base, bookingDate: '(none)', why: whyNot61(first.trim()) }
  const valueDay = swiftDay(m[1] as string)
  if (!valueDay) return { ...base, why: `"${m[1]}" in the :61: line is not a day (YYMMDD)` }
  // The entry (booking) date is MMDD, in the value date's year or the one beside it (a line valued 31 Dec and booked 2 Jan).
  let bookingDay = valueDay
  if (m[2]) {
    const year = Number(valueDay.slice(0, 4))
    const month = Number(m[2].slice(0, 2))
    const day = Number(m[2].slice(2))
    const valued = dayNumber(valueDay)
    let nearest = Infinity
    for (let y = year - 1; y <= year + 1; y++) {
      const candidate = calendarDay(y, month, day)
      if (candidate !== null && Math.abs(dayNumber(candidate) - valued) < nearest) {
        nearest = Math.abs(dayNumber(candidate) - valued)
        bookingDay = candidate
      }
    }
  }
  const amount = swiftAmount(m[5] as string)
  if (amount === null)
    return { ...base, bookingDate: bookingDay, why: `"${m[5]}" in the :61: line is not an amount (digits and one decimal comma)` }
  // C: credit; D: debit; RC: a credit reversed (money out); RD: a debit reversed (money back in).
  const mark = m[3] as string
  const negative = mark === 'D' || mark === 'RC'
  const refs = (m[7] as string).trim()
  const [customer, bankText] = refs.split('//') as [string, string | undefined]
  const bank = realReference(bankText)
  const supplementary = rest.join(' ').trim()
  // Written out, not spread from `base`: a spread object is built the slow way, and a file has a hundred thousand of these.
  return {
    line: field.line,
    bookingDate: bookingDay,
    valueDate: valueDay,
    amount: negative ? `-${amount}` : amount,
    bankId: bank,
    reference: realReference(customer) ?? info.references[0] ?? null,
    otherReferences: bank ? [...info.references, bank] : info.references,
    description:
      [mark.startsWith('R') ? 'Reversal:' : null, info.description || null, supplementary || null].filter(Boolean).join(' ') || null,
    counterparty: info.name,
    text: base.text,
    balanceAfter: null,
    why: undefined
  }
}

/** Every statement of the text: one per account and currency, consecutive messages (pages, days) chained into it. */
export function readMt940(text: string): BankStatement[] {
  const statements: BankStatement[] = []
  let current: BankStatement | null = null
  /** The days the statement being read covers so far. */
  const period: { from: string | null; to: string | null } = { from: null, to: null }
  /** The balance the last message closed on, checked against the next message's opening. */
  let carried: string | null = null
  const all = fields(text)
  const finishLabel = (s: BankStatement): void => {
    s.label = `account ${s.account ?? '(not stated)'}${s.currency ? ` ${s.currency}` : ''}${period.from && period.to ? `, ${period.from} to ${period.to}` : ''}`
  }
  let account: string | null = null
  /** The opening of the message being read, until its first line. */
  let pendingOpening: string | null = null
  // The last opening balance's place: a closing balance before it is an intermediate one (found once, not by looking ahead at every closing).
  let lastOpening = -1
  for (let k = 0; k < all.length; k++) if (all[k]?.tag === '60M' || all[k]?.tag === '60F') lastOpening = k
  const problem = (s: BankStatement, line: number, message: string): void => {
    ;(s.balanceProblems ??= []).push({ line, message })
  }
  for (let k = 0; k < all.length; k++) {
    const f = all[k] as Field
    switch (f.tag) {
      case '20':
        account = null
        break
      case '25':
        account = f.value.trim()
        break
      case '60F':
      case '60M': {
        const b = balance(f.value)
        const same = current !== null && current.account === account && (b === null || current.currency === b.currency)
        if (!same) {
          if (current) finishLabel(current)
          current = { account, currency: b?.currency ?? null, opening: b?.amount ?? null, closing: null, lines: [], notes: [], label: '' }
          statements.push(current)
          period.from = b?.day ?? null
          period.to = null
          carried = null
        } else if (current && b?.amount) {
          // The next page or day of the account: its opening must be the balance the last one closed on (the first line after it is checked so).
          current.notes.push({
            line: f.line,
            reason: `intermediate opening balance ${b.amount} ${b.currency}${carried !== null && b.amount !== carried ? `, not the ${carried} the page before closed on` : ''}`
          })
        }
        pendingOpening = b?.amount ?? null
        // A balance the file states and this reader cannot read proves nothing, and says so.
        if (b?.amount == null)
          problem(
            current as BankStatement,
            f.line,
            `the opening balance (:${f.tag}:) "${f.value.trim()}" does not read as C or D, date, currency and amount`
          )
        break
      }
      case '61': {
        if (!current) {
          current = { account, currency: null, opening: null, closing: null, lines: [], notes: [], label: '' }
          statements.push(current)
        }
        const next = all[k + 1]
        const details = next?.tag === '86' ? next : null
        const line = readLine61(f, details)
        // The first line after an intermediate opening that differs from the balance carried: its running balance says so.
        if (pendingOpening !== null && carried !== null && pendingOpening !== carried && /^-?\d+(\.\d+)?$/.test(line.amount))
          line.balanceAfter = addDecimal(pendingOpening, line.amount)
        pendingOpening = null
        current.lines.push(line)
        if (/^\d{4}-\d{2}-\d{2}$/.test(line.bookingDate)) {
          if (period.from === null || line.bookingDate < period.from) period.from = line.bookingDate
          if (period.to === null || line.bookingDate > period.to) period.to = line.bookingDate
        }
        break
      }
      case '62F':
      case '62M': {
        const b = balance(f.value)
        if (!current) break
        if (b?.amount == null) {
          problem(
            current,
            f.line,
            `the closing balance (:${f.tag}:) "${f.value.trim()}" does not read as C or D, date, currency and amount`
          )
          current.closing = null
          carried = null
          break
        }
        if (current.currency !== null && b.currency !== current.currency) {
          // A balance in another currency is not this statement's: it proves nothing, and says so.
          problem(current, f.line, `the closing balance (:${f.tag}:) is in ${b.currency}, the statement's currency is ${current.currency}`)
          current.closing = null
          carried = null
          break
        }
        const last = current.lines[current.lines.length - 1]
        if (f.tag === '62M' || k < lastOpening) {
          // An intermediate balance: the running balance after the last line of the page.
          if (last && b.amount) last.balanceAfter = b.amount
        }
        current.closing = b.amount
        carried = b.amount
        if (b.day && (period.to === null || b.day > period.to)) period.to = b.day
        break
      }
      case '64':
        if (current) current.notes.push({ line: f.line, reason: `closing available balance ${balance(f.value)?.amount ?? f.value.trim()}` })
        break
      case '65':
        if (current) current.notes.push({ line: f.line, reason: `forward available balance ${balance(f.value)?.amount ?? f.value.trim()}` })
        break
      case '34F':
      case '13D':
      case '90D':
      case '90C':
        break
    }
  }
  if (current) finishLabel(current)
  return statements
}

/** Exact decimal sum of two decimal texts ("1000.00" + "-12.5" → "987.50"), at the finer of their scales. */
function addDecimal(a: string, b: string): string {
  const scale = Math.max((a.split('.')[1] ?? '').length, (b.split('.')[1] ?? '').length)
  const units = (t: string): bigint => {
    const negative = t.startsWith('-')
    const [w = '0', f = ''] = t.replace('-', '').split('.')
    const v = BigInt(w + f.padEnd(scale, '0'))
    return negative ? -v : v
  }
  const sum = units(a) + units(b)
  const negative = sum < 0n
  const digits = (negative ? -sum : sum).toString().padStart(scale + 1, '0')
  return `${negative ? '-' : ''}${scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`
}
