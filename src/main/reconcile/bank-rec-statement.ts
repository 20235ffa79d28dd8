// The bank reconciliation statement an auditor files, per account and period: one model (entity, account, period, each currency's reconciliation, each statement's own proof, the chain, the files with their SHA-256, the sign-off) that the PDF below and the workbook's Reconciliation sheet both lay out, so both carry the summary's figures.
import { writeSync } from 'node:fs'
import { bankReconciliations, type BankReconciliation } from '../../shared/bank-reconciliation'
import { moneyText, parseMajor } from '../../shared/money'
import { dayText, inLocale, ISO, periodText, timeText } from '../../shared/locale'
import { accountInWords, chainHeadline } from '../../shared/periods'
import { feeBasisInWords, lineWhere, settingsInWords, type ReconSummary } from '../../shared/reconcile'
import { writeFileSafely } from '../files/safe-file'
import type { ReportInput } from './totals'
import { reconcilingSchedule, SCHEDULE_ROWS, type ScheduleClass } from './bank-rec-schedule'

/** One statement's own proof, in words: which statement, its balances and whether it ties, and each problem. */
export interface StatementProof {
  /** The file, its account and currency. */
  heading: string
  /** Its balances as stated, the lines read, and whether it is complete and why. */
  sentence: string
  /** Each break of its running balance and each line still not read. */
  problems: string[]
}

/** Who signed, and when; null where nobody has yet (a line to sign on paper). */
export interface SignOffBlock {
  preparedBy: string | null
  preparedAt: string | null
  reviewedBy: string | null
  reviewedAt: string | null
  /** The audit trail the document was written from: its events and its last hash (a closed session's: those its close binds, before the close). */
  events: number
  chainHead: string | null
  /** The session is closed: the trail is the one before its close, whose own event follows. */
  beforeClose: boolean
}

/** The audit trail under the sign-off, in words: what a reader compares with the hash the preparer kept. */
export function auditTrailWords(s: SignOffBlock): string {
  if (s.chainHead === null) return 'Audit trail: no event yet.'
  if (!s.beforeClose) return `Audit trail: ${s.events} events; the last one's hash (the chain head, to keep with the sign-off):`
  return `Audit trail up to the close: ${s.events} events, the last one's hash below. The close that binds this statement is the next event: its hash, the chain head to keep with the sign-off, is in the evidence pack's manifest and README (ledgerline audit verify prints it).`
}

export interface BankRecStatement {
  title: string
  /** The heading facts, label and value: entity, account, period, status, verdict. */
  facts: { label: string; value: string }[]
  /** A closed session's document is final; an open one's is a draft, and says so on every page. */
  draft: boolean
  reconciliations: BankReconciliation[]
  /** Each class's items one by one, as the reconciliation's lines add them. */
  schedule: ScheduleClass[]
  verdict: { headline: string; why: string[] }
  chain: string[]
  proofs: StatementProof[]
  files: { name: string; lines: number; sha256: string }[]
  signOff: SignOffBlock
}

/** The statement's model from the summary the reports carry and the input they were written from. */
export function bankRecStatement(summary: ReconSummary, input: ReportInput): BankRecStatement {
  const session = input.session
  const approval = input.signOff?.approved ?? null
  const prepared = input.signOff?.submitted ?? null
  const account = summary.account ?? session.account
  const chain = summary.chain ?? session.chain
  const closed = summary.closedAt !== null
  // Days and times as the reader writes them (times in the business's zone); names and references as they are.
  const locale = input.locale ?? ISO
  const zone = summary.period.timeZone
  const words = (text: string): string => inLocale(text, locale, zone)
  // A closed session's documents are of the trail its close binds (the pack's are written before the close event): the same whenever written.
  const lastClose = input.events.findLastIndex((e) => e.kind === 'close')
  const trail = closed && lastClose >= 0 ? input.events.slice(0, lastClose) : input.events
  const moment = (iso: string | null): string | null => (iso === null ? null : timeText(iso, locale, zone))
  return {
    title: 'Bank reconciliation statement',
    facts: [
      { label: 'Entity', value: `${summary.profile.name} (${summary.profile.mode} mode)` },
      { label: 'Account', value: accountInWords(account) },
      { label: 'Period', value: `${periodText(summary.period.from, summary.period.to, locale)} (${summary.period.timeZone})` },
      { label: 'Session', value: words(`${session.name}; the provider's ${summary.source}`) },
      { label: 'Expected amounts', value: feeBasisInWords(summary.basis) },
      {
        label: 'Status',
        value:
          (closed ? `Closed ${moment(summary.closedAt)} by ${summary.closedBy}` : 'OPEN: a draft, not signed off; its figures may change') +
          (summary.exceptions > 0
            ? `; ${summary.exceptions.toLocaleString('en-US')} ${summary.exceptions === 1 ? 'item was' : 'items were'} still to review${closed ? ' when it closed' : ''}`
            : '')
      },
      { label: 'Matching', value: `Ledgerline's matching rules (version ${summary.ruleVersion}): ${settingsInWords(summary.settings)}` }
    ],
    draft: !closed,
    reconciliations: bankReconciliations(summary).map((r) => ({ ...r, lines: r.lines.map((l) => ({ ...l, label: words(l.label) })) })),
    schedule: reconcilingSchedule(session, input.items()).map((k) => ({
      ...k,
      label: words(k.label),
      rows: k.rows.map((r) => ({ ...r, dayText: r.day === null ? null : dayText(r.day, locale), state: words(r.state) }))
    })),
    verdict: {
      headline: words(summary.verdict.headline),
      why: summary.verdict.currencies.flatMap((c) => c.why.map((w) => words(`${c.currency}: ${w}`)))
    },
    chain: [chainHeadline(account, chain), ...(chain?.said ?? [])].map(words),
    proofs: summary.statements.map((s) => {
      const money = (value: string | null): string | null =>
        value === null ? null : s.currency === null ? value : moneyText(parseMajor(value, s.currency), s.currency)
      const lines = `${s.linesRead.toLocaleString('en-US')} ${s.linesRead === 1 ? 'line' : 'lines'} read`
      return {
        heading: `${s.file}${s.account ? `, account ${s.account}` : ''}${s.currency ? `, ${s.currency}` : ''}`,
        sentence: words(
          `Opening ${money(s.opening) ?? 'not stated'}; closing ${money(s.closing) ?? 'not stated'}; ${lines}. ${s.complete ? 'Complete' : 'NOT complete'}: ${s.verdict}.`
        ),
        problems: [
          ...s.balanceBreaks.map(
            (b) =>
              `${lineWhere(b.line, s.pageStarts)}: running balance ${money(b.found)} where ${money(b.expected)} was expected (${money(b.gap)} apart)`
          ),
          ...s.notRead.map((l) => `${lineWhere(l.line, s.pageStarts)} not read: ${l.reason}`)
        ]
      }
    }),
    files: summary.files.map((f) => ({ name: f.name, lines: f.rows, sha256: f.sha256 })),
    signOff: {
      preparedBy: prepared?.by ?? summary.closedBy,
      preparedAt: moment(prepared?.at ?? summary.closedAt),
      reviewedBy: approval?.by ?? null,
      reviewedAt: moment(approval?.at ?? null),
      events: trail.length,
      chainHead: trail.at(-1)?.hash ?? null,
      beforeClose: closed
    }
  }
}

/** A line's amount as the statement prints it; a balance not stated is said so. */
export function bankRecAmount(line: BankReconciliation['lines'][number], currency: string): string {
  if (line.amountMinor !== null) return moneyText(line.amountMinor, currency)
  return line.kind === 'memo' ? '' : 'not stated'
}

const A4 = { width: 595.28, height: 841.89 }
const MARGIN = 48
const WIDTH = A4.width - 2 * MARGIN
const COLUMNS = { label: WIDTH - 190, count: 60, amount: 130 }
const BOTTOM = A4.height - MARGIN - 24
/** The schedule's columns: day, age, reference, who or what and where, state, amount. */
const SCHEDULE = [52, 34, 100, 165, 68, WIDTH - 52 - 34 - 100 - 165 - 68]

/**
 * The statement as a PDF (A4, the standard Helvetica: no font file to embed). `fixedTime` sets its
 * creation date, and with it its file id: the same session writes the same bytes (an evidence pack's
 * copy is bound by its SHA-256 at the close).
 */
export async function writeBankRecPdf(file: string, statement: BankRecStatement, fixedTime?: Date): Promise<void> {
  const bytes = await bankRecPdfBytes(statement, fixedTime ?? new Date())
  await writeFileSafely(file, (fd) => {
    writeSync(fd, bytes)
  })
}

export async function bankRecPdfBytes(statement: BankRecStatement, created: Date): Promise<Buffer> {
  // pdfkit is read only when a PDF is written.
  const { default: Pdf } = await import('pdfkit')
  const doc: PDFKit.PDFDocument = new Pdf({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: statement.title, Creator: 'Ledgerline', Producer: 'Ledgerline', CreationDate: created }
  })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  let y = MARGIN
  /** Room for `height` more, or a new page. */
  const room = (height: number): void => {
    if (y + height <= BOTTOM) return
    doc.addPage()
    y = MARGIN
  }
  const paragraph = (text: string, options: { font?: string; size?: number; gap?: number; indent?: number } = {}): void => {
    doc.font(options.font ?? 'Helvetica').fontSize(options.size ?? 9)
    const indent = options.indent ?? 0
    const height = doc.heightOfString(text, { width: WIDTH - indent })
    room(height)
    doc.text(text, MARGIN + indent, y, { width: WIDTH - indent })
    y += height + (options.gap ?? 3)
  }
  const heading = (text: string): void => {
    y += 8
    room(40)
    paragraph(text, { font: 'Helvetica-Bold', size: 11, gap: 5 })
  }
  /** A row of the reconciliation: its label wraps, its count and amount stand right, on its first line. */
  const row = (label: string, count: string, amount: string, font = 'Helvetica'): void => {
    doc.font(font).fontSize(9)
    const height = Math.max(doc.heightOfString(label, { width: COLUMNS.label - 8 }), doc.heightOfString('0'))
    room(height)
    doc.text(label, MARGIN, y, { width: COLUMNS.label - 8 })
    doc.text(count, MARGIN + COLUMNS.label, y, { width: COLUMNS.count, align: 'right', lineBreak: false })
    doc.text(amount, MARGIN + COLUMNS.label + COLUMNS.count, y, { width: COLUMNS.amount, align: 'right', lineBreak: false })
    y += height + 3
  }
  const rule = (): void => {
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + WIDTH, y)
      .lineWidth(0.5)
      .stroke()
    y += 4
  }

  /** A schedule row: each cell wraps in its column; the row is as tall as its tallest cell. On a new page, `continued` heads it first. */
  const scheduleRow = (cells: readonly string[], font = 'Helvetica', continued?: () => void): void => {
    doc.font(font).fontSize(7.5)
    const height = Math.max(...cells.map((c, i) => doc.heightOfString(c || ' ', { width: (SCHEDULE[i] as number) - 4 })))
    if (continued && y + height > BOTTOM) {
      doc.addPage()
      y = MARGIN
      continued()
      doc.font(font).fontSize(7.5)
    }
    room(height)
    let x = MARGIN
    cells.forEach((c, i) => {
      const width = SCHEDULE[i] as number
      doc.text(c, x, y, { width: width - 4, align: i === 1 || i === cells.length - 1 ? 'right' : 'left' })
      x += width
    })
    y += height + 2
  }
  const scheduleClass = (k: ScheduleClass): void => {
    const money = (minor: number): string => moneyText(minor, k.currency)
    const headings = (): void => {
      scheduleRow(['Day', 'Age (days)', 'Reference', 'Who or what; where', 'State', 'Amount'], 'Helvetica-Bold')
      rule()
    }
    heading(`${k.currency}: ${k.label}`)
    paragraph(`${k.count.toLocaleString('en-US')} ${k.count === 1 ? 'item' : 'items'}, ${money(k.amountMinor)} in all.`, { gap: 4 })
    headings()
    const continued = (): void => {
      paragraph(`${k.currency}: ${k.label} (continued)`, { font: 'Helvetica-Bold', gap: 4 })
      headings()
    }
    for (const r of k.rows)
      scheduleRow(
        [
          r.dayText ?? 'not read',
          r.age === null ? '' : r.age.toLocaleString('en-US'),
          r.reference,
          [r.words, r.where].filter(Boolean).join('; '),
          r.note ? `${r.state}; note: ${r.note.length > 200 ? `${r.note.slice(0, 199)}…` : r.note}` : r.state,
          money(r.amountMinor)
        ],
        'Helvetica',
        continued
      )
    if (k.more.count > 0)
      scheduleRow([
        '',
        '',
        '',
        `… and ${k.more.count.toLocaleString('en-US')} more, newer (in the workbook's Items sheet)`,
        '',
        money(k.more.amountMinor)
      ])
    if (k.unlisted > 0)
      scheduleRow(['', '', '', `${k.unlisted.toLocaleString('en-US')} matched with no difference, not listed`, '', money(0)])
    rule()
    scheduleRow(['', '', '', 'Total of the class, as in the reconciliation', '', money(k.amountMinor)], 'Helvetica-Bold')
  }

  paragraph(statement.title, { font: 'Helvetica-Bold', size: 16, gap: 8 })
  for (const f of statement.facts) {
    doc.font('Helvetica-Bold').fontSize(9)
    const height = doc.font('Helvetica').heightOfString(f.value, { width: WIDTH - 110 })
    room(height)
    doc.font('Helvetica-Bold').text(f.label, MARGIN, y, { width: 105, lineBreak: false })
    doc.font('Helvetica').text(f.value, MARGIN + 110, y, { width: WIDTH - 110 })
    y += height + 3
  }
  for (const rec of statement.reconciliations) {
    heading(`Reconciliation in ${rec.currency}`)
    row('', 'Items', 'Amount', 'Helvetica-Bold')
    rule()
    for (const line of rec.lines) {
      if (line.kind === 'memo' && line === rec.lines.find((l) => l.kind === 'memo')) {
        y += 4
        paragraph('Memo (said, not added):', { font: 'Helvetica-Oblique', gap: 2 })
      }
      const bold = line.kind === 'balance' || line.kind === 'total' || line.kind === 'difference'
      if (line.kind === 'total') rule()
      row(
        line.label,
        line.count === null ? '' : line.count.toLocaleString('en-US'),
        bankRecAmount(line, rec.currency),
        bold ? 'Helvetica-Bold' : 'Helvetica'
      )
    }
  }
  if (statement.schedule.length > 0) {
    y += 4
    paragraph("Each class's items are listed one by one in the schedule of reconciling items, after the sign-off.", {
      font: 'Helvetica-Oblique'
    })
  }
  heading('What may be said')
  paragraph(statement.verdict.headline, { font: 'Helvetica-Bold' })
  for (const why of statement.verdict.why) paragraph(`• ${why}`, { indent: 10 })
  heading("The period among the account's others")
  for (const line of statement.chain) paragraph(line)
  heading("Each statement's own proof")
  for (const p of statement.proofs) {
    paragraph(p.heading, { font: 'Helvetica-Bold', gap: 1 })
    paragraph(p.sentence, { indent: 10 })
    const shown = p.problems.slice(0, 25)
    for (const problem of shown) paragraph(`• ${problem}`, { indent: 20 })
    if (p.problems.length > shown.length) paragraph(`… and ${p.problems.length - shown.length} more (in the summary)`, { indent: 20 })
  }
  heading('Files reconciled, as imported')
  for (const f of statement.files) {
    paragraph(`${f.name} (${f.lines.toLocaleString('en-US')} ${f.lines === 1 ? 'line' : 'lines'})`, { gap: 0 })
    paragraph(`SHA-256 ${f.sha256}`, { font: 'Courier', size: 8, indent: 10 })
  }
  heading('Sign-off')
  const s = statement.signOff
  const signLine = '________________________'
  for (const [label, who, when] of [
    ['Prepared by', s.preparedBy, s.preparedAt],
    ['Reviewed by', s.reviewedBy, s.reviewedAt]
  ] as const) {
    room(30)
    doc.font('Helvetica-Bold').fontSize(9).text(label, MARGIN, y, { width: 105, lineBreak: false })
    doc.font('Helvetica').text(who ?? signLine, MARGIN + 110, y, { width: 200, lineBreak: false })
    doc.text(`Date ${when ?? signLine}`, MARGIN + 320, y, { width: WIDTH - 320, lineBreak: false })
    y += 22
  }
  paragraph(auditTrailWords(s))
  if (s.chainHead !== null) paragraph(s.chainHead, { font: 'Courier', size: 8 })
  if (statement.schedule.length > 0) {
    doc.addPage()
    y = MARGIN
    paragraph('Schedule of reconciling items', { font: 'Helvetica-Bold', size: 13, gap: 4 })
    paragraph(
      `Each class of the reconciliation above, item by item, oldest first: an item's amount is what it adds to its class (the statement's side less the provider's). At most ${SCHEDULE_ROWS} items of a class are listed; the rest are counted and summed below them, and listed in the workbook's Items sheet.`,
      { gap: 6 }
    )
    for (const k of statement.schedule) scheduleClass(k)
  }

  const range = doc.bufferedPageRange()
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i)
    // The footer sits in the bottom margin: with the margin kept, pdfkit would start a page for it.
    doc.page.margins.bottom = 0
    doc.font('Helvetica').fontSize(7.5)
    const foot = `${statement.draft ? 'DRAFT: the session is open. ' : ''}${statement.facts.find((f) => f.label === 'Account')?.value ?? ''}, ${statement.facts.find((f) => f.label === 'Period')?.value ?? ''}. Page ${i + 1} of ${range.count}`
    doc.text(foot, MARGIN, A4.height - MARGIN + 6, { width: WIDTH, align: 'center', lineBreak: false })
  }
  doc.end()
  return done
}
