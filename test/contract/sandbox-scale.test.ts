// The Sandbox serves a million payments by generating pages on demand, not by holding them in memory.
import { describe, expect, it } from 'vitest'
import { collect, sandboxWithClient } from '../support/sandbox'

describe('Sandbox at scale', () => {
  it('serves the first and last pages of 1,000,000 payments with little memory', async () => {
    global.gc?.()
    const heapBefore = process.memoryUsage().heapUsed
    const { sandbox, client } = await sandboxWithClient({ payments: 1_000_000 })
    try {
      const first = await client.listPayments()
      expect(first.totalElements).toBe(1_000_000)
      expect(first.totalPages).toBe(20_000)
      const last = await client.listPayments({}, { page: 19_999 })
      expect(last.content).toHaveLength(50)
      expect(last.content.at(-1)?.reference).toBe('TST-0999999')
      const tail = await collect(client.paymentPages({}, { startPage: 19_990 }))
      expect(tail).toHaveLength(500)
      expect(new Set(tail.map((p) => p.id)).size).toBe(500)
      // Same seed, same record: deterministic.
      expect((await client.listPayments({ paymentId: last.content[10]?.id as string })).content[0]).toEqual(last.content[10])
      const grown = process.memoryUsage().heapUsed - heapBefore
      expect(grown).toBeLessThan(100 * 1024 * 1024)
    } finally {
      await sandbox.close()
    }
  })
})
