// Reference keys without building strings: the same key for the same reference however written, and two references whose hashes collide never merge.
import { describe, expect, it } from 'vitest'
import { KeyIndex, keyHash } from '../../src/main/reconcile/key-index'

const { MISSING } = KeyIndex

describe('KeyIndex', () => {
  it('reads a reference as its key: case, spaces and punctuation do not count', () => {
    const index = new KeyIndex(4)
    expect(index.add('PAYREF0001', 1)).toBe(MISSING)
    expect(index.find('  pay-ref/0001 ')).toBe(1)
    expect(index.find('PAY-REF-0002')).toBe(MISSING)
    expect(index.add('AB12', 2)).toBe(MISSING)
    expect([index.find('AB123'), index.find('AB1'), index.find('ab 12')]).toEqual([MISSING, MISSING, 2])
    expect(keyHash('--  ')).toBe(-1)
    expect(index.add('--  ', 3)).toBe(MISSING)
    expect(index.find('--  ')).toBe(MISSING)
    // Letters outside ASCII are not part of a key, as normaliseReference drops them.
    expect(index.add('Ünïcode-12', 4)).toBe(MISSING)
    expect(index.find('NCODE12')).toBe(4)
  })

  it('keeps two keys apart when their hashes collide', () => {
    // Two references whose 31-bit hashes are equal (found once by search).
    const [a, b] = ['INVypuieg', 'INVcynqa9']
    expect(keyHash(a)).toBe(keyHash(b))
    const index = new KeyIndex()
    expect(index.add(a, 1)).toBe(MISSING)
    expect(index.add(b.toLowerCase(), 2)).toBe(MISSING)
    expect(index.find(a)).toBe(1)
    expect(index.find(` ${b} `)).toBe(2)
    expect(index.add(a, 3)).toBe(1)
    index.set(b, 4)
    expect([index.find(a), index.find(b), index.find('REF-NOT-THERE')]).toEqual([1, 4, MISSING])
  })

  it('grows past what it expected, and keeps every key', () => {
    const index = new KeyIndex(2)
    for (let i = 0; i < 20_000; i++) expect(index.add(`ref-${i}-${'x'.repeat(i % 40)}`, i)).toBe(MISSING)
    for (let i = 0; i < 20_000; i += 997) expect(index.find(`REF${i}${'X'.repeat(i % 40)}`)).toBe(i)
    expect(index.find('REF20000')).toBe(MISSING)
  })
})

describe('KeyIndex.addAll', () => {
  it('ends as adding one key after another would, and reports each key found again in its order', () => {
    // Keys written many ways, some repeated, one with no key characters, one pair of colliding hashes.
    const texts = Array.from({ length: 60_000 }, (_, j) =>
      j % 11 === 0 ? `ref-${j % 700}` : j % 13 === 0 ? ` REF ${j % 900} ` : j % 997 === 0 ? '--' : `ref ${j}`
    )
    texts.push('INVypuieg', 'INVcynqa9', 'invypuieg')
    const one = new KeyIndex(10)
    const foundOne: [number, number][] = []
    texts.forEach((text, j) => {
      const had = one.add(text, j)
      if (had !== MISSING) foundOne.push([j, had])
    })
    const all = new KeyIndex(10)
    const foundAll: [number, number][] = []
    // addAll yields between steps; here it is run to its end at once.
    Array.from(
      all.addAll(
        texts.length,
        (j) => texts[j] as string,
        (j) => j,
        (j, had) => foundAll.push([j, had])
      )
    )
    expect(foundAll.sort((a, b) => a[0] - b[0])).toEqual(foundOne)
    for (const text of ['REF-3', 'ref 59999', 'INVcynqa9', 'INVYPUIEG', 'REF 899', '--', 'nope-1'])
      expect(all.find(text)).toBe(one.find(text))
  })

  it('lets a key found again change the index, and later adds of that key see the change', () => {
    const texts = Array.from({ length: 5_000 }, (_, j) => `k-${j % 1_300}`)
    const run = (addAll: boolean): number[] => {
      const index = new KeyIndex(4)
      const seen: number[] = []
      const found = (j: number, had: number): void => {
        seen[j] = had
        index.set(texts[j] as string, -1)
      }
      if (addAll)
        Array.from(
          index.addAll(
            texts.length,
            (j) => texts[j] as string,
            (j) => j,
            found
          )
        )
      else
        texts.forEach((text, j) => {
          const had = index.add(text, j)
          if (had !== MISSING) found(j, had)
        })
      return seen
    }
    expect(run(true)).toEqual(run(false))
  })
})
