// Reference keys without building strings: same key for the same reference however written, and two references whose hashes collide never merge.
import { describe, expect, it } from 'vitest'
import { KeyIndex, keyHash, sameKey } from '../../src/main/reconcile/key-index'
import { normaliseReference } from '../../src/main/reconcile/references'

describe('KeyIndex', () => {
  it('reads a reference as its key: case, spaces and punctuation do not count', () => {
    expect(sameKey('  pay-ref/0001 ', 'PAYREF0001')).toBe(true)
    expect(sameKey('PAY-REF-0001', 'PAY-REF-0002')).toBe(false)
    expect(sameKey('AB12', 'AB123')).toBe(false)
    expect(keyHash('--  ')).toBe(-1)
    for (const text of ['  pay-ref/0001 ', 'Ünïcode-12', 'ab 12 cd']) expect(sameKey(text, normaliseReference(text))).toBe(true)
  })

  it('keeps two keys apart when their hashes collide', () => {
    // Two references whose 31-bit hashes are equal (found once by search).
    const pair: [string, string] = ['INVypuieg', 'INVcynqa9']
    const [a, b] = pair
    expect(keyHash(a)).toBe(keyHash(b))
    const index = new KeyIndex()
    expect(index.add(a, 1)).toBeUndefined()
    expect(index.add(b.toLowerCase(), 2)).toBeUndefined()
    expect(index.get(a)).toBe(1)
    expect(index.get(` ${b} `)).toBe(2)
    expect(index.add(a, 3)).toBe(1)
    index.set(b, 4)
    expect([index.get(a), index.get(b), index.get('REF-NOT-THERE')]).toEqual([1, 4, undefined])
  })
})
