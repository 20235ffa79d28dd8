// Property tests: random valid files round-trip through the provider export unchanged; random bytes never crash and every problem is located.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BULK_KINDS } from '../../src/shared/bulk/problems'
import { BULK_COLUMNS } from '../../src/shared/bulk/read'
import { validateBulkBytes, validateBulkText, type BulkContext } from '../../src/shared/bulk/validate'
import { providerCsv } from '../../src/shared/bulk/write'
import { propertyRuns } from '../support/property'

const banks: BulkContext['banks'] = new Map([
  [
    'NGN',
    new Map([
      ['058', 'GTBank'],
      ['044', 'Access']
    ])
  ],
  ['GHS', new Map([['300302', 'Absa']])]
])

/** Free text a person might type: commas, quotes, semicolons, accents, symbols, but one line and no formula start. */
const freeText = fc
  .string({ unit: fc.constantFrom(...'abcXYZ é,;"\'()&/₦.0123456789-'.split('')), minLength: 1, maxLength: 60 })
  .map((s) => s.trim())
  .filter((s) => s !== '' && !/^[=+\-@]/.test(s))

const amount = (decimals: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 10 ** decimals - 1 }))
    .filter(([w, f]) => w + f > 0)
    .map(([w, f]) => (decimals === 0 ? `${w}` : `${w}.${String(f).padStart(decimals, '0')}`))

const transferRow = fc.oneof(
  fc.tuple(
    amount(2),
    fc.constant('NGN'),
    fc.constantFrom('058', '044'),
    fc.constant(''),
    fc.stringMatching(/^\d{10}$/),
    freeText,
    freeText
  ),
  fc.tuple(
    amount(2),
    fc.constant('GHS'),
    fc.constant('300302'),
    fc.stringMatching(/^\d{0,6}$/),
    fc.stringMatching(/^\d{8,16}$/),
    freeText,
    freeText
  )
)

const planRow = fc.tuple(
  freeText,
  fc.constantFrom('daily', 'weekly', 'monthly', 'quarterly', 'biannually', 'annually'),
  amount(2),
  fc.constantFrom('NGN', 'GHS', 'USD'),
  fc.stringMatching(/^[A-Z0-9][A-Z0-9_-]{0,19}$/),
  fc.constant('NGN:5000.00;GHS:45')
)

describe('round trip', () => {
  it('a valid transfer file exports and reads back to the same rows, with no problems', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(transferRow, { minLength: 1, maxLength: 30, selector: (r) => `${r[1]}|${r[2]}|${r[4]}|${r[0]}` }),
        (rows) => {
          const csv = providerCsv('transfers', rows)
          expect(csv.endsWith('\r\n')).toBe(true)
          expect(csv.startsWith(BULK_COLUMNS.transfers.join(',') + '\r\n')).toBe(true)
          const { report, table } = validateBulkText('transfers', csv, { banks })
          expect(report.errors).toEqual([])
          expect(table.rows).toEqual(rows)
        }
      ),
      propertyRuns(200)
    )
  })

  it('a valid plan file exports and reads back to the same rows', () => {
    fc.assert(
      fc.property(fc.uniqueArray(planRow, { minLength: 1, maxLength: 20, selector: (r) => r[0].toLowerCase() }), (rows) => {
        const unique = rows.filter((r, i) => rows.findIndex((o) => o[4] === r[4]) === i)
        const { report, table } = validateBulkText('plans', providerCsv('plans', unique), {})
        expect(report.errors).toEqual([])
        expect(table.rows).toEqual(unique)
      }),
      propertyRuns(200)
    )
  })
})

describe('hostile input', () => {
  const located = (kind: (typeof BULK_KINDS)[number], bytes: Uint8Array): void => {
    const { report } = validateBulkBytes(kind, bytes, { banks, planReferences: new Set(['X']) })
    for (const problem of [...report.errors, ...report.warnings]) {
      expect(problem.code).toMatch(/^[a-z0-9_]+$/)
      expect(problem.message.length).toBeGreaterThan(10)
      if (problem.row !== null) expect(problem.row).toBeGreaterThanOrEqual(1)
      if (problem.column !== null) expect(BULK_COLUMNS[kind]).toContain(problem.column)
    }
    expect(report.valid).toBe(report.errors.length === 0)
  }

  it('random bytes never crash and every problem names a real row and column', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BULK_KINDS), fc.uint8Array({ maxLength: 600 }), (kind, bytes) => located(kind, bytes)),
      propertyRuns(300)
    )
  })

  it('random CSV-shaped text over the real header never crashes and stays located', () => {
    const cell = fc.string({ unit: fc.constantFrom(...'a1.,;"\r\n\t -=E+₦0'.split('')), maxLength: 12 })
    fc.assert(
      fc.property(
        fc.constantFrom(...BULK_KINDS),
        fc.array(fc.array(cell, { maxLength: 9 }), { maxLength: 12 }),
        fc.constantFrom(',', ';', '\t'),
        (kind, rows, sep) => {
          const text = [BULK_COLUMNS[kind].join(sep), ...rows.map((r) => r.join(sep))].join('\n')
          located(kind, new TextEncoder().encode(text))
        }
      ),
      propertyRuns(300)
    )
  })
})
