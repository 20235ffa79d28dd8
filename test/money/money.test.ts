// Money is exact: parsing, formatting, sums and every way an amount can be malformed.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addMoney,
  compareMoney,
  CURRENCY_EXPONENTS,
  currencyExponent,
  formatMoney,
  MoneyError,
  parseMajor,
  sumByCurrency,
  toMajorString
} from '../../src/shared/money'
import { propertyRuns } from '../support/property'

function errorCode(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (error) {
    return error instanceof MoneyError ? error.code : 'not-a-MoneyError'
  }
  return undefined
}

const currencies = Object.keys(CURRENCY_EXPONENTS)
const currency = fc.constantFrom(...currencies)
const safeMinor = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })

describe('ISO 4217 exponents', () => {
  it('use each currency’s own exponent, not a fixed ×100', () => {
    expect(currencyExponent('NGN')).toBe(2)
    expect(currencyExponent('GHS')).toBe(2)
    expect(currencyExponent('KES')).toBe(2)
    expect(currencyExponent('ZAR')).toBe(2)
    expect(currencyExponent('JPY')).toBe(0)
    expect(currencyExponent('UGX')).toBe(0)
    expect(currencyExponent('XOF')).toBe(0)
    expect(currencyExponent('KWD')).toBe(3)
    expect(currencyExponent('BHD')).toBe(3)
    expect(currencyExponent('CLF')).toBe(4)
  })

  it('refuse unknown or lower-case codes', () => {
    for (const code of ['XYZ', 'ngn', '', 'NGNX', '__proto__', 'constructor']) {
      expect(
        errorCode(() => currencyExponent(code)),
        code
      ).toBe('unknown_currency')
    }
  })
})

describe('parseMajor', () => {
  it('converts the API’s major units exactly', () => {
    expect(parseMajor(5, 'GHS')).toBe(500)
    expect(parseMajor('5.00', 'GHS')).toBe(500)
    expect(parseMajor(1234.5, 'NGN')).toBe(123450)
    expect(parseMajor(0.1, 'NGN')).toBe(10)
    expect(parseMajor(0.29, 'NGN')).toBe(29) // 0.29 * 100 = 28.999999999999996 in floats
    expect(parseMajor(1.005, 'KWD')).toBe(1005)
    expect(parseMajor('1500', 'JPY')).toBe(1500)
    expect(parseMajor('1500.00', 'JPY')).toBe(1500)
    expect(parseMajor(' 12.3 ', 'USD')).toBe(1230)
    expect(parseMajor('-12.30', 'USD')).toBe(-1230)
    expect(parseMajor('-0', 'USD')).toBe(0)
    expect(parseMajor('007.50', 'USD')).toBe(750)
    expect(parseMajor('90071992547409.91', 'USD')).toBe(9007199254740991)
  })

  it('rejects NaN, Infinity, exponent notation and anything not a plain decimal', () => {
    for (const bad of [
      NaN,
      Infinity,
      -Infinity,
      '1e3',
      '1E-2',
      1e21,
      '',
      ' ',
      '1,000.00',
      '+5',
      '5.',
      '.5',
      '0x10',
      '5 000',
      'abc',
      '--1',
      '1.2.3'
    ]) {
      expect(
        errorCode(() => parseMajor(bad, 'NGN')),
        String(bad)
      ).toBe('invalid_amount')
    }
    expect(errorCode(() => parseMajor(null as unknown as string, 'NGN'))).toBe('invalid_amount')
    expect(errorCode(() => parseMajor({} as unknown as string, 'NGN'))).toBe('invalid_amount')
  })

  it('rejects more decimals than the currency has', () => {
    expect(errorCode(() => parseMajor('5.001', 'NGN'))).toBe('too_many_decimals')
    expect(errorCode(() => parseMajor(0.125, 'USD'))).toBe('too_many_decimals')
    expect(errorCode(() => parseMajor('5.5', 'JPY'))).toBe('too_many_decimals')
    expect(errorCode(() => parseMajor('1.0001', 'KWD'))).toBe('too_many_decimals')
    expect(parseMajor('1.0001', 'CLF')).toBe(10001)
  })

  it('rejects unknown currencies and amounts beyond exact range', () => {
    expect(errorCode(() => parseMajor('5', 'XXX1'))).toBe('unknown_currency')
    expect(errorCode(() => parseMajor('90071992547409.92', 'USD'))).toBe('amount_too_large')
    expect(errorCode(() => parseMajor('99999999999999999999', 'JPY'))).toBe('amount_too_large')
  })

  it('round-trips every safe minor amount through its decimal string', () => {
    fc.assert(
      fc.property(safeMinor, currency, (minor, code) => {
        expect(parseMajor(toMajorString(minor, code), code)).toBe(minor)
      }),
      propertyRuns(100)
    )
  })

  it('round-trips through a JSON number whenever the double holds the decimal exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom('NGN', 'GHS', 'KES', 'ZAR', 'JPY', 'KWD'), (minor, code) => {
        const asJson = JSON.parse(toMajorString(minor, code)) as number
        expect(parseMajor(asJson, code)).toBe(minor)
      }),
      propertyRuns(100)
    )
  })
})

describe('toMajorString and formatMoney', () => {
  it('write the exact decimal with the currency’s exponent', () => {
    expect(toMajorString(123450, 'NGN')).toBe('1234.50')
    expect(toMajorString(5, 'NGN')).toBe('0.05')
    expect(toMajorString(-5, 'NGN')).toBe('-0.05')
    expect(toMajorString(1500, 'JPY')).toBe('1500')
    expect(toMajorString(1, 'KWD')).toBe('0.001')
    expect(toMajorString(0, 'GHS')).toBe('0.00')
  })

  it('format for display per locale without going through floats', () => {
    // The ISO code, never a symbol: "$" is several currencies' and "F CFA" a locale's spelling of XOF.
    const plain = (m: Parameters<typeof formatMoney>[0], locale: string): string => formatMoney(m, locale).replace(/\u00a0/g, ' ')
    expect(plain({ minor: 123450, currency: 'USD' }, 'en-US')).toBe('USD 1,234.50')
    expect(plain({ minor: 9007199254740991, currency: 'USD' }, 'en-US')).toBe('USD 90,071,992,547,409.91')
    expect(plain({ minor: 1500, currency: 'JPY' }, 'en-US')).toBe('JPY 1,500')
    expect(plain({ minor: 500000, currency: 'XOF' }, 'fr-SN')).toMatch(/^500\s000\sXOF$|^XOF\s500\s000$/)
    expect(plain({ minor: -10000, currency: 'NGN' }, 'en-US')).toBe('-NGN 100.00')
    expect(formatMoney({ minor: 1234, currency: 'KWD' }, 'en-US')).toMatch(/1\.234/)
    expect(formatMoney({ minor: 123450, currency: 'EUR' }, 'de-DE')).toMatch(/1\.234,50/)
    expect(formatMoney({ minor: -500, currency: 'GHS' }, 'en-GH')).toMatch(/-.*5\.00/)
  })
})

describe('arithmetic', () => {
  it('adds and compares within one currency only', () => {
    expect(addMoney({ minor: 10, currency: 'NGN' }, { minor: 29, currency: 'NGN' })).toEqual({ minor: 39, currency: 'NGN' })
    expect(compareMoney({ minor: 10, currency: 'NGN' }, { minor: 29, currency: 'NGN' })).toBe(-1)
    expect(compareMoney({ minor: 29, currency: 'NGN' }, { minor: 29, currency: 'NGN' })).toBe(0)
    expect(errorCode(() => addMoney({ minor: 1, currency: 'NGN' }, { minor: 1, currency: 'GHS' }))).toBe('currency_mismatch')
    expect(errorCode(() => compareMoney({ minor: 1, currency: 'NGN' }, { minor: 1, currency: 'GHS' }))).toBe('currency_mismatch')
  })

  it('refuses a total that would lose exactness', () => {
    expect(errorCode(() => addMoney({ minor: Number.MAX_SAFE_INTEGER, currency: 'NGN' }, { minor: 1, currency: 'NGN' }))).toBe(
      'amount_too_large'
    )
  })

  it('sums by currency exactly, whatever the order (property)', () => {
    const item = fc.record({ minor: fc.integer({ min: -1e9, max: 1e9 }), currency: fc.constantFrom('NGN', 'GHS', 'JPY') })
    fc.assert(
      fc.property(fc.array(item, { maxLength: 200 }), (items) => {
        const totals = sumByCurrency(items)
        const reversed = sumByCurrency([...items].reverse())
        for (const code of ['NGN', 'GHS', 'JPY']) {
          const expected = items.filter((i) => i.currency === code).reduce((acc, i) => acc + BigInt(i.minor), 0n)
          expect(BigInt(totals.get(code) ?? 0)).toBe(expected)
          expect(reversed.get(code)).toBe(totals.get(code))
        }
      }),
      propertyRuns(100)
    )
  })

  it('sums decimal strings exactly where floats drift', () => {
    const amounts = Array.from({ length: 1000 }, () => '0.10')
    const floatTotal = amounts.reduce((acc, a) => acc + Number(a), 0)
    expect(floatTotal).not.toBe(100)
    const totals = sumByCurrency(amounts.map((a) => ({ minor: parseMajor(a, 'NGN'), currency: 'NGN' })))
    expect(toMajorString(totals.get('NGN') ?? 0, 'NGN')).toBe('100.00')
  })
})
