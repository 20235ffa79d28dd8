// Reading API responses without rounding: money keeps its text, over-long numbers are never squeezed through a double.
import { describe, expect, it } from 'vitest'
import { parseJsonExact } from '../../src/main/api/exact-json'
import { paymentRow } from '../../src/main/cache/api-rows'
import { paymentSchema } from '../../src/shared/api/schemas'

describe('parseJsonExact', () => {
  it('keeps every money field as the text sent, and leaves other numbers alone', () => {
    const text = '{"amount": 100.50, "totalFees":1.5e2, "rate": 1532.450, "pageNumber": 3, "list": [1, 2.50], "note": "amount: 5"}'
    expect(parseJsonExact(text)).toEqual({
      amount: '100.50',
      totalFees: '1.5e2',
      rate: '1532.450',
      pageNumber: 3,
      list: [1, 2.5],
      note: 'amount: 5'
    })
  })

  it('reads a number past 15 significant digits as its text instead of rounding it', () => {
    const text =
      '{"amount": 12345678901234567.89, "localAmount": -0.000000000000000001, "id": 98765432109876543210, "small": 123456789012345}'
    const parsed = parseJsonExact(text) as Record<string, unknown>
    expect(parsed['amount']).toBe('12345678901234567.89')
    expect(parsed['localAmount']).toBe('-0.000000000000000001')
    expect(parsed['id']).toBe('98765432109876543210')
    expect(parsed['small']).toBe(123456789012345)
    // JSON.parse would have rounded both.
    expect(String(JSON.parse(text).amount)).not.toBe('12345678901234567.89')
  })

  it('handles keys and strings with escapes, nesting and whitespace like JSON.parse', () => {
    const text = '{"a\\"b": {"amount" :\n 7.10}, "content": [{"amount": 1.00, "x": "\\\\"}], "amount": null, "rate": true}'
    expect(parseJsonExact(text)).toEqual({ 'a"b': { amount: '7.10' }, content: [{ amount: '1.00', x: '\\' }], amount: null, rate: true })
  })

  it('throws on malformed JSON exactly where JSON.parse does', () => {
    for (const bad of ['{"amount": 1.2.3}', '{"amount": 01}', '{"amount": -}', '{"amount": 5', '[1,]', '']) {
      expect(() => JSON.parse(bad), bad).toThrow(SyntaxError)
      expect(() => parseJsonExact(bad), bad).toThrow(SyntaxError)
    }
  })

  it('a page of payments keeps each money field exactly, beside its minor units', () => {
    const payment = parseJsonExact(
      '{"id":"p1","amount":12345678901234.56,"currency":"NGN","localAmount":0.10,"localCurrency":"USD","totalFees":150.00,"totalTaxAmount":11.25,"totalLocalAmount":999999999999999999.99,"status":"successful","createdAt":"2026-11-01T10:00:00Z"}'
    )
    const row = paymentRow(paymentSchema.parse(payment))
    expect(row).toMatchObject({
      amount_raw: '12345678901234.56',
      amount_minor: 1234567890123456,
      local_amount_raw: '0.10',
      local_amount_minor: 10,
      fees_raw: '150.00',
      fees_minor: 15000,
      tax_raw: '11.25',
      tax_minor: 1125,
      // Too large for exact minor units in a double: kept as text, minor units empty, never rounded.
      total_local_raw: '999999999999999999.99',
      total_local_minor: null
    })
  })
})
