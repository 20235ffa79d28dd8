// The open pool's arrays kept between decisions (pool-arrays.ts): every record and line found by id at its place, through items dropped (the last member moved into the gap) and members a decision puts after the pool's and takes off again.
import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, type FileSide, type ProviderSide, type ReconItem, type SessionInfo } from '../../src/shared/reconcile'
import type { MirroredItems, StoredItem } from '../../src/main/reconcile/items'
import { engineFileRow, engineProvider } from '../../src/main/reconcile/engine-sides'
import { PoolArrays } from '../../src/main/reconcile/pool-arrays'

const session = { id: 's', source: 'payments', from: '2026-10-01', to: '2026-10-31', settings: DEFAULT_SETTINGS } as unknown as SessionInfo

const record = (id: string, amountMinor = 1_000): ProviderSide => ({
  id,
  reference: null,
  serviceReference: null,
  date: '2026-10-10',
  amountMinor,
  feesMinor: 0,
  currency: 'NGN',
  status: 'successful',
  channel: 'card',
  name: null
})
const line = (id: string, amountMinor = 1_000): FileSide => ({
  id,
  fileId: 'file',
  line: 1,
  date: '2026-10-10',
  reference: null,
  description: 'TRANSFER',
  counterparty: null,
  amountMinor,
  currency: 'NGN'
})

function stored(key: string, outcome: string, provider: ProviderSide[], file: FileSide[]): StoredItem {
  const item = { key, outcome, provider, file, score: null } as unknown as ReconItem
  return { position: 0, data: JSON.stringify(item), item }
}

/** A mirror of the given pool items, its changes told to whatever listens. */
function mirror(items: StoredItem[]): MirroredItems & { change(key: string, item: StoredItem | null): void } {
  const map = new Map(items.map((s) => [s.item.key, s]))
  const m = {
    token: null,
    items: map,
    poolOf: new Map<string, ReconItem>(),
    listeners: new Map() as MirroredItems['listeners'],
    change(key: string, item: StoredItem | null): void {
      if (item) map.set(key, item)
      else map.delete(key)
      for (const listener of m.listeners.values()) listener(key, item)
    }
  }
  return m
}

/** Every record and line is where its id says, with its own columns and its item's places. */
function expectConsistent(pool: PoolArrays): void {
  pool.records.forEach((r, i) => {
    expect(pool.recordAt(r.id)).toBe(i)
    expect(pool.pColumns.amount[i]).toBe(r.amountMinor)
  })
  pool.lines.forEach((f, i) => {
    expect(pool.lineAt(f.id)).toBe(i)
    expect(pool.fColumns.amount[i]).toBe(f.amountMinor)
  })
  for (const slot of pool.slots.values()) {
    expect(slot.ps.map((i) => pool.records[i]?.id).sort()).toEqual(slot.stored.item.provider.map((p) => p.id).sort())
    expect(slot.fs.map((i) => pool.lines[i]?.id).sort()).toEqual(slot.stored.item.file.map((f) => f.id).sort())
    for (const i of slot.ps) expect(pool.pLast[i]?.key).toBe(slot.stored.item.key)
  }
  for (const list of Object.values(pool.pColumns)) expect(list).toHaveLength(pool.records.length)
  for (const list of Object.values(pool.fColumns)) expect(list).toHaveLength(pool.lines.length)
}

describe('the open pool kept in arrays', () => {
  it('finds each member at its place when an item leaves and the last members move into its places', () => {
    const m = mirror([
      stored('r1|', 'only_in_provider', [record('r1', 100)], []),
      stored('r2|', 'only_in_provider', [record('r2', 200)], []),
      stored('|l1', 'only_in_file', [], [line('l1', 300)]),
      stored('r3+r4|l2', 'suggested', [record('r3', 400), record('r4', 500)], [line('l2', 900)])
    ])
    const pool = PoolArrays.of(m, session)
    expect(pool.records.map((r) => r.id)).toEqual(['r1', 'r2', 'r3', 'r4'])
    m.change('r1|', null)
    expect(pool.recordAt('r1')).toBeUndefined()
    expect(pool.recordAt('r4')).toBe(0)
    expectConsistent(pool)
    m.change('r3+r4|l2', null)
    m.change('|l1', null)
    expect(pool.records.map((r) => r.id)).toEqual(['r2'])
    expect(pool.lines).toHaveLength(0)
    m.change('r4|', stored('r4|', 'only_in_provider', [record('r4', 500)], []))
    expectConsistent(pool)
  })

  it('takes off what a decision put after the pool, ids and all, so it can be put again', () => {
    const m = mirror([stored('r1|', 'only_in_provider', [record('r1')], []), stored('|l1', 'only_in_file', [], [line('l1')])])
    const pool = PoolArrays.of(m, session)
    const freed = [engineProvider(record('r9', 900), session)]
    const freedLines = [engineFileRow(line('l9', 900))]
    expect(pool.extend(freed, freedLines)).toBe(true)
    expect(pool.recordAt('r9')).toBe(1)
    expect(pool.lineAt('l9')).toBe(1)
    pool.trim()
    expect(pool.recordAt('r9')).toBeUndefined()
    expect(pool.lineAt('l9')).toBeUndefined()
    expectConsistent(pool)
    // A member the pool holds is refused; the ones taken off are not.
    expect(pool.extend([engineProvider(record('r1'), session)], [])).toBe(false)
    expect(pool.extend(freed, freedLines)).toBe(true)
    pool.trim()
    expectConsistent(pool)
  })
})
