// What a statement file is, known by its bytes and never by its name: each format Ledgerline reads, and a message naming what the file is (and what to export instead) when it is none of them.
import { AppError } from '../../errors'
import { decodeStatement, utf16ByZeros } from './encoding'

export const STATEMENT_FORMATS = ['csv', 'xlsx', 'xls', 'pdf', 'mt940', 'camt', 'ofx', 'qif'] as const
export type StatementFormat = (typeof STATEMENT_FORMATS)[number]

/** What to export instead, said in every refusal. */
const EXPORT_INSTEAD =
  'Export the statement from your bank as CSV, Excel (.xlsx or .xls), PDF, MT940, CAMT.053, OFX or QIF and import that file.'

/** A file that is not a statement Ledgerline reads: what it is, in the user's words. */
export function notAStatement(name: string, what: string): AppError {
  return new AppError('not_a_statement', `${name} is ${what}, not a bank statement. ${EXPORT_INSTEAD}`)
}

const startsWith = (bytes: Uint8Array, ...sig: number[]): boolean => sig.every((b, i) => bytes[i] === b)

/** Latin-1 view of the first bytes (every byte one character): enough to look for ASCII markers in any encoding but UTF-16. */
function head(bytes: Uint8Array, n: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(n, bytes.byteLength)).toString('latin1')
}

/** ASCII text as UTF-16LE bytes in Latin-1 (how a compound file's directory names its streams). */
const utf16 = (text: string): string => text.replace(/./g, (c) => `${c}\u0000`)

/**
 * The format of a statement file, from its content. Throws not_a_statement naming what the file is
 * when it is an image, an archive, a document or empty. Text that is none of the named text formats
 * is CSV (its own reader then says what it finds).
 */
export function sniffStatement(bytes: Uint8Array, name: string): StatementFormat {
  if (bytes.byteLength === 0) throw notAStatement(name, 'an empty file (0 bytes)')
  const start = head(bytes, 8192)
  if (/^\s*$/.test(head(bytes, 1 << 16)) && bytes.byteLength <= 1 << 16) throw notAStatement(name, 'empty (only blank lines)')
  // A PDF may have a few bytes of junk before its header; readers look within the first kilobyte.
  if (start.slice(0, 1024).includes('%PDF-')) return 'pdf'
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04) || startsWith(bytes, 0x50, 0x4b, 0x05, 0x06)) return zipKind(bytes, name)
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return compoundKind(bytes, name)
  const image = imageKind(bytes)
  if (image) throw notAStatement(name, `${image} (a picture of a statement cannot be read; Ledgerline does no OCR)`)
  const archive = archiveKind(bytes)
  if (archive) throw notAStatement(name, `${archive}; take the statement out of it first`)
  const text = textHead(bytes)
  if (text === null) throw notAStatement(name, 'a binary file of a kind Ledgerline does not know')
  const trimmed = text.replace(/^\uFEFF/, '').trimStart()
  if (/^OFXHEADER\s*:/i.test(trimmed) || /<\?OFX\b/i.test(text) || /^(?:<\?xml[^>]*>\s*)?<OFX>/i.test(trimmed)) return 'ofx'
  if (/urn:iso:std:iso:20022:tech:xsd:camt\.05[234]/i.test(text) || /<(?:\w+:)?BkToCstmr(?:Stmt|AcctRpt|DbtCdtNtfctn)\b/.test(text))
    return 'camt'
  if (isSwift(trimmed)) return 'mt940'
  if (/^!(?:Type|Account|Option|Clear)/i.test(trimmed)) return 'qif'
  if (/^<\?xml|^<[A-Za-z][\w:.-]*[\s>]/.test(trimmed)) {
    // Some internet banks save an HTML table as ".xls": Excel opens it, and so does the workbook reader.
    if (/<table[\s>]/i.test(text)) return 'xls'
    if (/^<!doctype html|^<html/i.test(trimmed)) throw notAStatement(name, 'a web page (HTML) with no table in it')
    throw notAStatement(name, 'an XML file that is neither CAMT.052/053/054 nor OFX')
  }
  if (/^<!doctype html|^<html/i.test(trimmed)) {
    if (/<table[\s>]/i.test(text)) return 'xls'
    throw notAStatement(name, 'a web page (HTML) with no table in it')
  }
  if (/^\{\\rtf/.test(trimmed)) throw notAStatement(name, 'a Rich Text (RTF) document')
  return 'csv'
}

/** MT940/MT942: SWIFT blocks ("{1:F01…}{4:") or bare tags, a transaction reference then an account or balance tag. */
function isSwift(text: string): boolean {
  if (/^\{1:F\d{2}[A-Z0-9]/.test(text) || /\{4:\s*\r?\n:20:/.test(text)) return true
  const lines = text.split(/\r?\n/, 60)
  const tags = new Set<string>()
  for (const line of lines) {
    const tag = /^:(\d{2}[A-Z]?):/.exec(line)
    if (tag) tags.add(tag[1] as string)
  }
  return tags.has('20') && (tags.has('25') || tags.has('60F') || tags.has('60M') || tags.has('34F'))
}

/** A zip is a workbook only when it holds xl/workbook.xml; otherwise it is said what it is. */
function zipKind(bytes: Uint8Array, name: string): StatementFormat {
  // The entries' names are stored as plain text in the local headers and the central directory.
  const names = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  if (names.includes('xl/workbook.xml') || names.includes('xl/workbook.bin')) return 'xlsx'
  if (names.includes('word/document.xml')) throw notAStatement(name, 'a Word document (.docx)')
  if (names.includes('ppt/presentation.xml')) throw notAStatement(name, 'a PowerPoint presentation (.pptx)')
  if (names.includes('content.xml') && names.includes('opendocument.spreadsheet'))
    throw notAStatement(name, 'an OpenDocument spreadsheet (.ods); save it from LibreOffice as .xlsx or CSV')
  if (names.includes('content.xml') && names.includes('opendocument')) throw notAStatement(name, 'an OpenDocument file')
  throw notAStatement(name, 'a zip archive that is not an Excel workbook; take the statement out of it first')
}

/** An old Office compound file: a workbook has a Workbook (or Book) stream; Word and PowerPoint are named. */
function compoundKind(bytes: Uint8Array, name: string): StatementFormat {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  if (all.includes(utf16('Workbook')) || all.includes(utf16('Book'))) return 'xls'
  if (all.includes(utf16('WordDocument'))) throw notAStatement(name, 'an old Word document (.doc)')
  if (all.includes(utf16('PowerPoint Document'))) throw notAStatement(name, 'an old PowerPoint presentation (.ppt)')
  if (all.includes(utf16('EncryptedPackage')))
    throw notAStatement(name, 'a password-protected Office file; save it in Excel without a password')
  throw notAStatement(name, 'an old Office file that is not a workbook')
}

function imageKind(bytes: Uint8Array): string | null {
  if (startsWith(bytes, 0x89, 0x50, 0x4e, 0x47)) return 'a PNG image'
  if (startsWith(bytes, 0xff, 0xd8, 0xff)) return 'a JPEG image'
  if (head(bytes, 6) === 'GIF87a' || head(bytes, 6) === 'GIF89a') return 'a GIF image'
  if (startsWith(bytes, 0x49, 0x49, 0x2a, 0x00) || startsWith(bytes, 0x4d, 0x4d, 0x00, 0x2a)) return 'a TIFF image'
  if (head(bytes, 4) === 'RIFF' && head(bytes, 12).slice(8) === 'WEBP') return 'a WebP image'
  if (head(bytes, 2) === 'BM' && bytes.byteLength > 26 && bytes[14] !== undefined && [12, 40, 52, 56, 108, 124].includes(bytes[14]))
    return 'a BMP image'
  if (/^....ftyp(heic|heix|mif1|avif)/s.test(head(bytes, 12))) return 'a HEIC/AVIF image'
  return null
}

function archiveKind(bytes: Uint8Array): string | null {
  if (startsWith(bytes, 0x1f, 0x8b)) return 'a gzip archive'
  if (head(bytes, 6) === 'Rar!\u001a\u0007') return 'a RAR archive'
  if (startsWith(bytes, 0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) return 'a 7-Zip archive'
  return null
}

/**
 * The first 64 KB as text, or null when they are not text: UTF-16 (by its byte order mark or zero
 * bytes) is decoded; otherwise a NUL or many control bytes mean binary.
 */
function textHead(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1 << 16))
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff) || utf16ByZeros(b)) return decodeStatement(b).text
  let control = 0
  for (const c of b) {
    if (c === 0) return null
    if (c < 9 || (c > 13 && c < 32 && c !== 26 && c !== 27)) control++
  }
  return control > b.length * 0.01 + 2 ? null : b.toString('latin1')
}
