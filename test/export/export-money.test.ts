// Exports never leave a money cell empty: an amount that could not be converted is written as the provider sent it, marked.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { parseJsonExact } from '../../src/main/api/exact-json'
import { openCache } from '../../src/main/cache/open'
import { paymentRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import { AS_SENT_MARK, exportCsv } from '../../src/main/export/export'
import { paymentSchema } from '../../src/shared/api/schemas'

describe('export money cells', () => {
  it('writes exact amounts, and the text as sent (marked) where there are no exact minor units', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-export-money-'))
    const file = join(dir, 'cache.sqlite')
    const db = openCache(file)
    db.prepare("insert into profiles (id, name, mode, created_at) values ('p', 'P', 'live', '2026-01-01')").run()
    const payment = paymentSchema.parse(
      parseJsonExact(
        '{"id":"p1","amount":12.345,"currency":"NGN","totalFees":0.50,"totalTaxAmount":0.04,"localAmount":7,"localCurrency":"XYZ","totalLocalAmount":7.0,"status":"SUCCESS","createdAt":"2026-11-01T10:00:00Z"}'
      )
    )
    new CacheStore(db).writePage('p', 'payments', [paymentRow(payment)])
    db.close()
    const out = join(dir, 'payments.csv')
    await exportCsv({ file }, { id: 'p', mode: 'live' }, { resource: 'payments' }, out)
    const parsed = Papa.parse<Record<string, string>>(readFileSync(out, 'utf8').replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true
    })
    const cells = parsed.data[0]
    expect(cells).toMatchObject({
      amount: `${AS_SENT_MARK}12.345`,
      fees: '0.50',
      tax: '0.04',
      local_amount: `${AS_SENT_MARK}7`,
      total_local_amount: `${AS_SENT_MARK}7.0`
    })
  })
})
