// Turns the bytes of a file someone calls CSV into text, or says plainly why it is not one (a workbook, binary, unreadable).
import { ProblemList } from './problems'

const startsWith = (bytes: Uint8Array, ...prefix: number[]): boolean => prefix.every((byte, i) => bytes[i] === byte)

/**
 * UTF-8 with or without BOM is read as is. UTF-16 (with its BOM) and text that is not valid UTF-8
 * (taken as Windows-1252, what Excel's plain "CSV" writes on Windows) are read and reported as a
 * warning, since the provider expects UTF-8 and the export writes it. A workbook or binary data
 * gives an error and null.
 */
export function decodeCsvBytes(bytes: Uint8Array, problems: ProblemList): string | null {
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) {
    problems.error(
      null,
      null,
      'not_csv',
      'This is an Excel workbook (or another zip file), not CSV. In Excel use File > Save As > "CSV UTF-8 (Comma delimited)".'
    )
    return null
  }
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0)) {
    problems.error(
      null,
      null,
      'not_csv',
      'This is an old Excel workbook (.xls), not CSV. In Excel use File > Save As > "CSV UTF-8 (Comma delimited)".'
    )
    return null
  }
  const utf16 = startsWith(bytes, 0xff, 0xfe) ? 'utf-16le' : startsWith(bytes, 0xfe, 0xff) ? 'utf-16be' : null
  if (utf16) {
    problems.warning(
      null,
      null,
      'not_utf8',
      'The file is UTF-16 ("Unicode text"); it was read, and the export writes UTF-8 as the provider expects.'
    )
    return new TextDecoder(utf16).decode(bytes)
  }
  // NUL bytes never occur in a text CSV; a few at the start mean binary data or UTF-16 without its BOM.
  const head = bytes.subarray(0, 8192)
  if (head.includes(0)) {
    problems.error(null, null, 'not_csv', 'The file holds binary data, not CSV text. Export it from your spreadsheet as "CSV UTF-8".')
    return null
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    problems.warning(
      null,
      null,
      'not_utf8',
      "The file is not UTF-8; it was read as Windows-1252 (Excel's plain CSV), and the export writes UTF-8. Check names with accents."
    )
    return new TextDecoder('windows-1252').decode(bytes)
  }
}
