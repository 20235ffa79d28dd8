// The sample statement written in each format banks deliver (CSV, Excel .xlsx and .xls, PDF, MT940, CAMT.053, OFX, QIF), so every reader can be tried offline on the same lines and differences.
import * as XLSX from '@e965/xlsx'
import { toMajorString } from '../shared/money'
import { FIRST_ROW_LINE, type SampleStatement } from './statement'
import { writeStatementPdf } from './statement-pdf'

import { SAMPLE_FORMATS, type SampleFormat } from '../shared/reconcile'

export { SAMPLE_FORMATS, type SampleFormat }

const EXTENSION: Record<SampleFormat, string> = {
  csv: 'csv',
  xlsx: 'xlsx',
  xls: 'xls',
  pdf: 'pdf',
  mt940: 'sta',
  camt053: 'xml',
  ofx: 'ofx',
  qif: 'qif'
}

export interface SampleFile {
  name: string
  bytes: Buffer
  /** The sample's differences, each on its line of this file. */
  differences: SampleStatement['differences']
  /** A PDF's pages as the file-wide line each starts on (lineWhere names a line by page); null for other formats. */
  pageStarts: number[] | null
}

const major = (minor: number): string => toMajorString(minor, 'NGN')
const swift = (minor: number): string => major(Math.abs(minor)).replace('.', ',')
const yymmdd = (day: string): string => day.slice(2).replace(/-/g, '')
const xml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The sample in one format; its differences moved to the lines of that file. */
export function sampleStatementFile(sample: SampleStatement, format: SampleFormat): SampleFile {
  const { bytes, lines, pageStarts } = render(sample, format)
  const differences = sample.differences.map((d) => ({ ...d, line: d.line === null ? null : (lines[d.line - FIRST_ROW_LINE] ?? null) }))
  return { name: `sandbox-statement-${sample.day}.${EXTENSION[format]}`, bytes, differences, pageStarts: pageStarts ?? null }
}

/** The file's bytes and the line (or row) of each entry. */
function render(sample: SampleStatement, format: SampleFormat): { bytes: Buffer; lines: number[]; pageStarts?: number[] } {
  const e = sample.entries
  switch (format) {
    case 'csv':
      return { bytes: Buffer.from(sample.csv, 'utf8'), lines: e.map((_, k) => FIRST_ROW_LINE + k) }
    case 'xlsx':
    case 'xls':
      return workbook(sample, format)
    case 'pdf':
      return pdf(sample)
    case 'mt940': {
      const out = [
        `{1:F01SBXNNGLAXXXX0000000000}{2:I940SBXNNGLAXXXXN}{4:`,
        `:20:SBX${yymmdd(sample.day)}`,
        `:25:${sample.account}`,
        ':28C:00001/001',
        `:60F:${sample.openingMinor < 0 ? 'D' : 'C'}${yymmdd(sample.day)}NGN${swift(sample.openingMinor)}`
      ]
      const lines: number[] = []
      for (const x of e) {
        lines.push(out.length + 1)
        out.push(
          `:61:${yymmdd(x.day)}${yymmdd(x.day).slice(2)}${x.amountMinor < 0 ? 'D' : 'C'}${swift(x.amountMinor)}N${x.amountMinor < 0 ? 'CHG' : 'TRF'}${x.reference || 'NONREF'}`
        )
        out.push(`:86:${x.narration}`)
      }
      out.push(`:62F:${sample.closingMinor < 0 ? 'D' : 'C'}${yymmdd(sample.day)}NGN${swift(sample.closingMinor)}`, '-}', '')
      return { bytes: Buffer.from(out.join('\r\n'), 'utf8'), lines }
    }
    case 'camt053': {
      const bal = (code: string, minor: number): string =>
        `   <Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="NGN">${major(Math.abs(minor))}</Amt><CdtDbtInd>${minor < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${sample.day}</Dt></Dt></Bal>`
      const out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">',
        ' <BkToCstmrStmt>',
        `  <GrpHdr><MsgId>SBX-${sample.day}</MsgId><CreDtTm>${sample.day}T23:59:59</CreDtTm></GrpHdr>`,
        '  <Stmt>',
        `   <Id>SBX-${sample.day}</Id>`,
        `   <Acct><Id><Othr><Id>${sample.account}</Id></Othr></Id><Ccy>NGN</Ccy></Acct>`,
        bal('OPBD', sample.openingMinor),
        bal('CLBD', sample.closingMinor)
      ]
      const lines: number[] = []
      e.forEach((x, k) => {
        lines.push(out.length + 1)
        out.push(
          `   <Ntry><NtryRef>${k + 1}</NtryRef><Amt Ccy="NGN">${major(Math.abs(x.amountMinor))}</Amt><CdtDbtInd>${x.amountMinor < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
            `<BookgDt><Dt>${x.day}</Dt></BookgDt><ValDt><Dt>${x.day}</Dt></ValDt><AcctSvcrRef>SBX${String(k + 1).padStart(6, '0')}</AcctSvcrRef>` +
            `<NtryDtls><TxDtls>${x.reference ? `<Refs><EndToEndId>${xml(x.reference)}</EndToEndId></Refs>` : ''}<RmtInf><Ustrd>${xml(x.narration)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`
        )
      })
      out.push('  </Stmt>', ' </BkToCstmrStmt>', '</Document>', '')
      return { bytes: Buffer.from(out.join('\n'), 'utf8'), lines }
    }
    case 'ofx': {
      const d = sample.day.replace(/-/g, '')
      const out = [
        'OFXHEADER:100',
        'DATA:OFXSGML',
        'VERSION:102',
        'SECURITY:NONE',
        'ENCODING:USASCII',
        'CHARSET:1252',
        'COMPRESSION:NONE',
        'OLDFILEUID:NONE',
        'NEWFILEUID:NONE',
        '',
        '<OFX>',
        '<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>',
        '<STMTRS><CURDEF>NGN',
        `<BANKACCTFROM><BANKID>999<ACCTID>${sample.account}<ACCTTYPE>CHECKING</BANKACCTFROM>`,
        `<BANKTRANLIST><DTSTART>${d}<DTEND>${d}`
      ]
      const lines: number[] = []
      e.forEach((x, k) => {
        lines.push(out.length + 1)
        out.push(
          `<STMTTRN><TRNTYPE>${x.amountMinor < 0 ? 'FEE' : 'CREDIT'}<DTPOSTED>${d}<TRNAMT>${major(x.amountMinor)}<FITID>SBX${String(k + 1).padStart(6, '0')}${x.reference ? `<REFNUM>${xml(x.reference)}` : ''}<NAME>${xml(x.narration.slice(0, 32))}<MEMO>${xml(x.narration)}</STMTTRN>`
        )
      })
      out.push(
        '</BANKTRANLIST>',
        `<LEDGERBAL><BALAMT>${major(sample.closingMinor)}<DTASOF>${d}</LEDGERBAL>`,
        '</STMTRS></STMTTRNRS></BANKMSGSRSV1>',
        '</OFX>',
        ''
      )
      return { bytes: Buffer.from(out.join('\r\n'), 'latin1'), lines }
    }
    case 'qif': {
      const [y, m, day] = sample.day.split('-') as [string, string, string]
      const date = `${Number(m)}/${Number(day)}'${y.slice(2)}`
      const out = ['!Type:Bank', `D${date}`, `T${major(sample.openingMinor)}`, 'POpening Balance', `L[${sample.account}]`, '^']
      const lines: number[] = []
      for (const x of e) {
        lines.push(out.length + 1)
        out.push(`D${date}`, `T${major(x.amountMinor)}`, ...(x.reference ? [`N${x.reference}`] : []), `P${x.narration}`, '^')
      }
      out.push('')
      return { bytes: Buffer.from(out.join('\r\n'), 'utf8'), lines }
    }
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** "2026-03-05" → "05-Mar-2026", as Nigerian banks print days. */
export const bankDay = (day: string): string => `${day.slice(8, 10)}-${MONTHS[Number(day.slice(5, 7)) - 1]}-${day.slice(0, 4)}`

/** A PDF as internet banks print it: header block, narrations wrapped, 30 lines a page under a repeated header, "Page n of m". */
function pdf(sample: SampleStatement): { bytes: Buffer; lines: number[]; pageStarts: number[] } {
  const written = writeStatementPdf({
    runningHead: 'SANDBOX TEST BANK PLC - STATEMENT OF ACCOUNT',
    headerBlock: [
      'Account name: LEDGERLINE SANDBOX MERCHANT',
      `Account number: ${sample.account}`,
      'Currency: NGN',
      `Period: ${bankDay(sample.day)} to ${bankDay(sample.day)}`,
      `Opening balance: ${major(sample.openingMinor)}`
    ],
    columns: [
      { name: 'Trans Date', width: 58 },
      { name: 'Value Date', width: 58 },
      { name: 'Reference', width: 92 },
      { name: 'Narration', width: 150 },
      { name: 'Debit', width: 55, align: 'right' },
      { name: 'Credit', width: 55, align: 'right' },
      { name: 'Balance', width: 62, align: 'right' }
    ],
    rows: sample.entries.map((x) => [
      bankDay(x.day),
      bankDay(x.day),
      x.reference,
      x.narration,
      x.amountMinor < 0 ? major(-x.amountMinor) : '',
      x.amountMinor > 0 ? major(x.amountMinor) : '',
      major(x.balanceMinor)
    ]),
    after: [`Closing balance: ${major(sample.closingMinor)}`],
    linesPerPage: 30
  })
  return { bytes: written.bytes, lines: written.rowLines, pageStarts: written.pageStarts }
}

/** A workbook as internet banks export it: a summary sheet with no lines, then the statement sheet with its header block, dates as date cells and amounts as numbers. */
function workbook(sample: SampleStatement, format: 'xlsx' | 'xls'): { bytes: Buffer; lines: number[] } {
  const day = new Date(`${sample.day}T00:00:00Z`)
  const amount = (minor: number): number => Number(major(minor))
  const block: unknown[][] = [
    ['SANDBOX TEST BANK PLC'],
    ['Statement of account'],
    ['Account name', 'LEDGERLINE SANDBOX MERCHANT'],
    ['Account number', sample.account],
    ['Currency', 'NGN'],
    ['Opening balance', amount(sample.openingMinor)],
    [],
    ['Txn Date', 'Value Date', 'Reference', 'Narration', 'Debit', 'Credit', 'Balance']
  ]
  const rows = sample.entries.map((x) => [
    day,
    day,
    x.reference,
    x.narration,
    x.amountMinor < 0 ? amount(-x.amountMinor) : null,
    x.amountMinor > 0 ? amount(x.amountMinor) : null,
    amount(x.balanceMinor)
  ])
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([['Account summary'], ['Account', sample.account], ['Lines', sample.entries.length]]),
    'Summary'
  )
  const sheet = XLSX.utils.aoa_to_sheet(
    [...block, ...rows, [null, null, null, 'Closing balance', null, null, amount(sample.closingMinor)]],
    {
      cellDates: true,
      dateNF: 'dd/mm/yyyy'
    }
  )
  XLSX.utils.book_append_sheet(book, sheet, 'Transactions')
  const bytes = XLSX.write(book, { type: 'buffer', bookType: format === 'xls' ? 'biff8' : 'xlsx' }) as Buffer
  return { bytes, lines: rows.map((_, k) => block.length + 1 + k) }
}
