// The filter of a run's record keys never says "no" of a key it holds, compares keys as the exact keys do, and says "no" of nearly every other.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keyFilter, keysHeldTwice, mayHoldKey } from '../../src/main/reconcile/key-filter'
import { propertyRuns } from '../support/property'

describe('the filter of record keys', () => {
  it('holds every key it was made of, as written any way the exact keys read it the same', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 -]{0,14}$/), { maxLength: 300 }), (keys) => {
        const filter = keyFilter(keys)
        for (const key of keys) {
          expect(mayHoldKey(filter, key)).toBe(true)
          // Case, spaces and punctuation never make two keys differ.
          expect(mayHoldKey(filter, ` ${key.toLowerCase().replace(/-/g, '/')} `)).toBe(true)
        }
      }),
      propertyRuns(100)
    )
  })

  it('says "surely not" of nearly every key it was not made of, and of text with no key in it', () => {
    const held = Array.from({ length: 20_000 }, (_, i) => `ORD-${String(i).padStart(8, '0')}`)
    const filter = keyFilter(held)
    let wrong = 0
    for (let i = 0; i < 20_000; i++) if (mayHoldKey(filter, `INV${i}X`)) wrong++
    expect(wrong / 20_000).toBeLessThan(0.02)
    expect(mayHoldKey(filter, ' -/ ')).toBe(false)
    expect(mayHoldKey(keyFilter([]), 'ORD-1')).toBe(false)
  })

  it('lists the keys two records hold, however each writes it, once', () => {
    expect(keysHeldTwice(['PAY-1', 'pay 1', 'ORD-7', 'ORD-8', 'ord8', 'ORD8', '', '--'])).toEqual(['ORD8', 'PAY1'])
  })
})
