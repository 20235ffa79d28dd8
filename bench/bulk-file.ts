// The 100,000-row payout file the bulk benchmarks check: mostly clean, one row in a hundred with a typical mistake, always the same.
import type { BulkContext } from '../src/shared/bulk/validate'
import { providerCsv } from '../src/shared/bulk/write'

export const ROWS = 100_000
const NGN_BANKS = ['044', '058', '011', '033', '057', '070', '214', '232', '035', '050']
const GHS_BANKS = ['300302', '300303', '300304', '300313']
const FIRST = ['Adaeze', 'Bola', 'Chinedu', 'Kofi', 'Ama', 'Ngozi', 'Tunde', 'Efua', 'Yaw', 'Halima']
const LAST = ['Okafor', 'Adeyemi', 'Mensah', 'Owusu', 'Bello', 'Eze', 'Boateng', 'Ibrahim']

/** A payout file as a payroll export gives it: mostly clean, one row in a hundred with a typical mistake. */
export function payoutFile(rows = ROWS): string {
  const cells: string[][] = []
  for (let i = 0; i < rows; i++) {
    const ghs = i % 7 === 3
    const amount = `${1_000 + ((i * 7_919) % 900_000)}.${String(i % 100).padStart(2, '0')}`
    const account = ghs ? String(1_000_000_000_000 + i * 31) : String(1_000_000_000 + i * 13).padStart(10, '0')
    const row = [
      amount,
      ghs ? 'GHS' : 'NGN',
      ghs ? (GHS_BANKS[i % 4] as string) : (NGN_BANKS[i % 10] as string),
      ghs ? '030100' : '',
      account,
      `${FIRST[i % 10]} ${LAST[i % 8]}`,
      `Salary November ${i}`
    ]
    if (i % 100 === 42) row[0] = `${(row[0] as string).split('.')[0]?.replace(/(\d)(\d{3})$/, '$1,$2')}.00`
    if (i % 100 === 77) row[4] = (row[4] as string).slice(1)
    cells.push(row)
  }
  return providerCsv('transfers', cells)
}

export const banks: BulkContext['banks'] = new Map([
  ['NGN', new Map(NGN_BANKS.map((code) => [code, `Bank ${code}`]))],
  ['GHS', new Map(GHS_BANKS.map((code) => [code, `Bank ${code}`]))]
])
