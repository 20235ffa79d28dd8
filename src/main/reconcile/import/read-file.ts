// One statement file → its statements, whatever its format (known by its content): each format's reader, then the grid reader every one ends in.
import { createHash } from 'node:crypto'
import type { StatementMapping } from '../../../shared/reconcile'
import { AppError } from '../../errors'
import { DEFAULT_INFLATED_LIMIT } from '../../files/zip'
import { decodeXml, readCamt } from './camt'
import { decodeStatement, decodeUtf8Else1252 } from './encoding'
import { loadSheetJs } from './excel/sheetjs'
import { readWorkbookGrids } from './excel/workbook'
import { parseGrid } from './grid-reader'
import { readMt940 } from './mt940'
import { decodeOfx, readOfx, withoutStatement } from './ofx'
import { EMPTY_MAPPING, type FileFacts, type ParsedStatement } from './parsed-statement'
import { layoutPdfStatement, readPdfText } from './pdf'
import { QIF_MAPPING, readQifGrid } from './qif'
import { notAStatement, sniffStatement } from './sniff'
import { parseBankStatements, type BankStatement } from './structured'
import { isOwnReport, readCsvGrid, type Grid } from './table'

/** What one of Ledgerline's own reports is said to be when given back as a statement. */
const OWN_REPORT = "one of Ledgerline's own reconciliation reports (its items or its summary)"

/** The first (or only) statement of a file; parseStatementFile gives them all. */
export async function parseStatement(
  bytes: Uint8Array,
  name: string,
  given: Partial<StatementMapping> = {},
  options: ReadOptions = {}
): Promise<ParsedStatement> {
  return (await parseStatementFile(bytes, name, given, options))[0] as ParsedStatement
}

export interface ReadOptions {
  /** Opens a password-protected PDF; handed to the PDF reader only, never kept, logged or returned. */
  password?: string | undefined
  /** The most a file, or one part of a workbook once inflated, may hold (default DEFAULT_INFLATED_LIMIT, 512 MB). */
  maxBytes?: number | undefined
}

/**
 * Every statement a file holds, whatever its format (known by its content): a CSV one, a workbook
 * one per sheet that holds a statement, an MT940, CAMT or OFX file one per account. Throws
 * not_a_statement, naming what the file is, when it is none of the formats read.
 */
export async function parseStatementFile(
  bytes: Uint8Array,
  name: string,
  given: Partial<StatementMapping> = {},
  options: ReadOptions = {}
): Promise<ParsedStatement[]> {
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const mapping = (): StatementMapping => ({ ...EMPTY_MAPPING, ...given, columns: { ...(given.columns ?? {}) } })
  const facts = (encoding: string | null = null, encodingHow: string | null = null): FileFacts => ({
    name,
    sha256,
    size: bytes.byteLength,
    encoding,
    encodingHow
  })
  const format = sniffStatement(bytes, name)
  const maxBytes = options.maxBytes ?? DEFAULT_INFLATED_LIMIT
  if (bytes.byteLength > maxBytes)
    throw new AppError(
      'file_too_large',
      `${name} is ${megabytes(bytes.byteLength)}, more than the ${megabytes(maxBytes)} Ledgerline reads of one file (a setting: --max-size in the CLI). Split the statement by month or account.`
    )
  switch (format) {
    case 'csv': {
      const { grid, encoding, how } = csvGrid(bytes, given)
      if (isOwnReport(grid.rows)) throw notAStatement(name, OWN_REPORT)
      const parsed = parseGrid(grid, facts(encoding, how), mapping())
      return [parsed]
    }
    case 'xlsx':
    case 'xls': {
      await loadSheetJs()
      const grids = readWorkbookGrids(bytes, name, { perEntry: maxBytes, total: 2 * maxBytes })
      if (grids.some((g) => isOwnReport(g.rows))) throw notAStatement(name, OWN_REPORT)
      const sheets = grids.map((grid) => ({ ...parseGrid(grid, facts(), mapping()), format }))
      // Each sheet that holds a statement (its date and amount columns found, lines on it); the first sheet when none does, to be mapped.
      const statements = sheets.filter((s) => !s.questions.some((q) => q.field === 'columns') && s.rows.length + s.problems.length > 0)
      if (statements.length === 0) return [sheets[0] as ParsedStatement]
      return statements.map((s) => ({ ...s, label: statements.length > 1 || sheets.length > 1 ? `sheet ${s.sheet}` : null }))
    }
    case 'mt940': {
      // MT940 leaves its character set to the desktop: UTF-8, else Windows-1252.
      const decoded = decodeUtf8Else1252(bytes)
      const statements = readMt940(decoded.text)
      if (statements.length === 0)
        throw new AppError('no_statement', `${name} is an MT940 file with no statement in it (no :61: line and no balance).`)
      return labelled(
        parseBankStatements(withCurrency(statements, given.defaultCurrency, name), facts(decoded.encoding, decoded.how), 'mt940')
      )
    }
    case 'camt': {
      const decoded = decodeXml(bytes)
      const statements = readCamt(decoded.text, name)
      if (statements.length === 0)
        throw new AppError('no_statement', `${name} is a CAMT file with no statement in it (no Stmt, Rpt or Ntfctn).`)
      return labelled(
        parseBankStatements(withCurrency(statements, given.defaultCurrency, name), facts(decoded.encoding, decoded.how), 'camt')
      )
    }
    case 'ofx': {
      const decoded = decodeOfx(bytes)
      const statements = readOfx(decoded.text, given.defaultCurrency ?? null)
      if (statements.length === 0) throw new AppError('no_statement', `${name} ${withoutStatement(decoded.text)}.`)
      return labelled(
        parseBankStatements(withCurrency(statements, given.defaultCurrency, name), facts(decoded.encoding, 'OFX header'), 'ofx')
      )
    }
    case 'qif': {
      const decoded = decodeStatement(bytes, given.encoding)
      return [
        {
          ...parseGrid(readQifGrid(decoded.text, name), facts(decoded.encoding, decoded.how), {
            ...QIF_MAPPING,
            ...mapping(),
            columns: { ...QIF_MAPPING.columns, ...(given.columns ?? {}) }
          }),
          format
        }
      ]
    }
    case 'pdf': {
      const layout = layoutPdfStatement(await readPdfText(bytes, name, options.password), name, given.columns ?? {})
      const parsed = parseGrid(layout.grid, facts(), mapping())
      const skipped = [...parsed.skipped, ...layout.setAside].sort((a, b) => a.line - b.line)
      return [{ ...parsed, format, skipped, pageStarts: layout.pageStarts }]
    }
    default:
      throw new AppError('not_a_statement', `${name} is a ${format} file, which Ledgerline does not read yet.`)
  }
}

/** A CSV file's grid and how its text was decoded: the text itself is let go once split (the grid holds its cells), not kept through the reading. */
function csvGrid(bytes: Uint8Array, given: Partial<StatementMapping>): { grid: Grid; encoding: string; how: string } {
  const { text, encoding, how } = decodeStatement(bytes, given.encoding)
  return { grid: readCsvGrid(text, given.separator ?? null), encoding, how }
}

/** A structured file's statements with a given currency filling only those that state none; one that states another refuses it. */
function withCurrency(statements: BankStatement[], given: string | null | undefined, name: string): BankStatement[] {
  if (!given) return statements
  for (const s of statements)
    if (s.currency !== null && s.currency !== given)
      throw new AppError(
        'currency_conflict',
        `${name} states its currency is ${s.currency}${statements.length > 1 ? ` (${s.label})` : ''}, not the ${given} given: a currency the file states is never overridden. Leave the currency out, or import the right file.`
      )
  return statements.map((s) => (s.currency === null ? { ...s, currency: given } : s))
}

const megabytes = (n: number): string => `${Math.ceil(n / (1024 * 1024)).toLocaleString('en-US')} MB`

/** A file's statements: the label only says which when there are several. */
function labelled(statements: ParsedStatement[]): ParsedStatement[] {
  return statements.length === 1 ? [{ ...(statements[0] as ParsedStatement), label: null }] : statements
}
