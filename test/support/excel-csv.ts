// Reads back an Excel-safe CSV as Excel shows it: the byte order mark dropped and each ="…" identifier as the text it holds.
import { readFileSync } from 'node:fs'
import Papa from 'papaparse'

/** Each row by its header, every cell as Excel displays it. */
export function readExcelCsv(file: string): Record<string, string>[] {
  const rows = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true
  }).data
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, /^="[^"]*"$/.test(v) ? v.slice(2, -1) : v])))
}
