// The open pool as the engine reads it, kept between decisions: each pool item's records and lines in arrays, followed change by change as the session's mirrored items change, so a decision does not gather a million items' pool again.
import type { FileSide, SessionInfo } from '../../shared/reconcile'
import { engineFileRow, engineProvider } from './engine-sides'
import { KEYS_OUTCOMES, type MirroredItems, type StoredItem } from './items'
import { phaseOf, type LastItem } from './match/rematch'
import { pushLineColumns, pushRecordColumns, type KnownMembers, type LineColumns, type RecordColumns } from './match/state'
import type { EngineFileRow, EngineProvider } from './match/types'
import { referenceCandidates, referenceTokens } from './references'

/** A pool item in the arrays: as stored, as the replay reads it (null: no phase makes such an item), and its members' places. */
export interface Slot {
  stored: StoredItem
  last: LastItem | null
  /** Its records' and lines' places in the arrays (the same arrays as last.ps and last.fs). */
  ps: number[]
  fs: number[]
}

const KEYED = new Set<string>(KEYS_OUTCOMES)

/**
 * A session's open pool (the mirrored items of POOL_OUTCOMES) as the engine reads it: every record and line of it in
 * arrays, in no order (the engine orders by content), each with its item as the replay reads it; and every key that a
 * line of the pool or of KEYS_OUTCOMES names, with those lines. Followed through the mirror's changes while it is
 * attached, so it stands for the mirror as long as the mirror stands for the table (a new mirror gets new arrays).
 * A decision may put records and lines of its own after the pool's (freed, from outside the period) and takes them
 * off again (`trim`) before any change reaches the mirror.
 */
export class PoolArrays implements KnownMembers {
  private readonly p = new Members<EngineProvider, RecordColumns>(
    { day: [], amount: [], expected: [], net: [], money: [], keyed: [], currency: [] },
    (slot) => slot.ps,
    (columns, r) => pushRecordColumns(columns, r, this.netOfFees, this.code(r.currency))
  )
  private readonly f = new Members<EngineFileRow, LineColumns>(
    { day: [], amount: [], notRead: [], currency: [] },
    (slot) => slot.fs,
    (columns, f) => pushLineColumns(columns, f, this.code(f.currency))
  )
  readonly records = this.p.list
  readonly lines = this.f.list
  /** Each record's and line's item as the replay reads it (null for one a decision put after the pool's, or of no phase). */
  readonly pLast = this.p.last
  readonly fLast = this.f.last
  /** The columns a match reads of each record and line, worked out once (MatchState.load). */
  readonly pColumns = this.p.columns
  readonly fColumns = this.f.columns
  /** The pool's items by key. */
  readonly slots = new Map<string, Slot>()
  /** The lines of the mirrored items of KEYS_OUTCOMES, by item key. */
  private readonly keyed = new Map<string, readonly FileSide[]>()
  private readonly naming = new Map<string, Set<FileSide>>()
  /** Pool items no phase makes: while there are any, the pool is matched whole. */
  unknownPhases = 0
  /** Whether records carry parties set for a decision (taken off when a later one has nothing learned). */
  partied = false
  /** While a decision has records and lines of its own after the pool's: how many are the pool's. */
  pooledRecords = 0
  pooledLines = 0
  private extended = false

  /** The pool of `mirror` for `session`: the arrays attached to it (followed through its changes), made when there are none. */
  static of(mirror: MirroredItems, session: SessionInfo): PoolArrays {
    const attached = ATTACHED.get(mirror)
    if (attached && attached.session === session.id && attached.netOfFees === session.settings.netOfFees) return attached
    const arrays = new PoolArrays(session)
    for (const stored of mirror.items.values()) arrays.put(stored)
    ATTACHED.set(mirror, arrays)
    mirror.listeners.set('pool', (key, stored) => {
      arrays.drop(key)
      if (stored) arrays.put(stored)
    })
    return arrays
  }

  readonly netOfFees: boolean

  private constructor(private readonly sessionInfo: SessionInfo) {
    this.netOfFees = sessionInfo.settings.netOfFees
  }

  get session(): string {
    return this.sessionInfo.id
  }

  /** Puts records and lines of the decision's own after the pool's: false (and none put) when one is in the pool already. */
  extend(records: readonly EngineProvider[], lines: readonly EngineFileRow[]): boolean {
    if (this.extended) throw new Error('the pool is extended already')
    if (records.some((r) => this.p.place(r.id) !== undefined) || lines.some((f) => this.f.place(f.id) !== undefined)) return false
    this.extended = true
    this.pooledRecords = this.records.length
    this.pooledLines = this.lines.length
    for (const r of records) this.p.push(r, null)
    for (const f of lines) this.f.push(f, null)
    return true
  }

  /** Takes off what `extend` put after the pool's. */
  trim(): void {
    if (!this.extended) return
    this.extended = false
    this.p.cut(this.pooledRecords)
    this.f.cut(this.pooledLines)
  }

  /** One string per currency code, so a state compares codes by reference (each record's own copy is compared by content). */
  private code(code: string): string {
    const known = this.codes.get(code)
    if (known !== undefined) return known
    this.codes.set(code, code)
    return code
  }

  private readonly codes = new Map<string, string>()

  recordAt(id: string): number | undefined {
    return this.p.place(id)
  }

  lineAt(id: string): number | undefined {
    return this.f.place(id)
  }

  /** The lines of the mirrored items (pool and KEYS_OUTCOMES) that name any of `keys`. */
  linesNaming(keys: Iterable<string>): Set<FileSide> {
    const found = new Set<FileSide>()
    for (const k of keys) for (const f of this.naming.get(k) ?? []) found.add(f)
    return found
  }

  private put(stored: StoredItem): void {
    const { item } = stored
    if (KEYED.has(item.outcome)) {
      this.keyed.set(item.key, item.file)
      for (const f of item.file) this.name(f, true)
      return
    }
    const phase = phaseOf(item)
    const ps: number[] = []
    const fs: number[] = []
    const slot: Slot = { stored, last: phase === null ? null : { key: item.key, phase, ps, fs }, ps, fs }
    if (phase === null) this.unknownPhases++
    this.slots.set(item.key, slot)
    for (const p of item.provider) this.p.push(engineProvider(p, this.sessionInfo), slot)
    for (const f of item.file) {
      this.name(f, true)
      this.f.push(engineFileRow(f), slot)
    }
  }

  private drop(key: string): void {
    const keyed = this.keyed.get(key)
    if (keyed) {
      this.keyed.delete(key)
      for (const f of keyed) this.name(f, false)
      return
    }
    const slot = this.slots.get(key)
    if (!slot) return
    this.slots.delete(key)
    if (slot.last === null) this.unknownPhases--
    for (const f of slot.stored.item.file) this.name(f, false)
    this.p.takeAll(slot)
    this.f.takeAll(slot)
  }

  private name(f: FileSide, add: boolean): void {
    for (const k of lineKeys(f)) {
      let lines = this.naming.get(k)
      if (add) {
        if (!lines) this.naming.set(k, (lines = new Set()))
        lines.add(f)
      } else if (lines) {
        lines.delete(f)
        if (lines.size === 0) this.naming.delete(k)
      }
    }
  }
}

/** One side of the arrays (the records, or the lines): its members, each one's item as the replay reads it and slot, the columns a match reads, and where each is by id. */
class Members<M extends { id: string }, C extends object> {
  readonly list: M[] = []
  readonly last: (LastItem | null)[] = []
  private readonly slots: (Slot | null)[] = []
  private readonly at = new Map<string, number>()

  /** `placesOf`: a slot's places on this side (its ps, or its fs); `pushColumns`: a member's columns put after the others'. */
  constructor(
    readonly columns: C,
    private readonly placesOf: (slot: Slot) => number[],
    private readonly pushColumns: (columns: C, member: M) => void
  ) {}

  place(id: string): number | undefined {
    return this.at.get(id)
  }

  push(member: M, slot: Slot | null): void {
    if (slot) this.placesOf(slot).push(this.list.length)
    this.at.set(member.id, this.list.length)
    this.list.push(member)
    this.last.push(slot?.last ?? null)
    this.slots.push(slot)
    this.pushColumns(this.columns, member)
  }

  /** Takes out each member of `slot`, its place given to the last member, whose item is told its new place. */
  takeAll(slot: Slot): void {
    const places = this.placesOf(slot)
    while (places.length > 0) {
      const at = places.pop() as number
      const end = this.list.length - 1
      this.at.delete((this.list[at] as M).id)
      if (at !== end) {
        this.at.set((this.list[end] as M).id, at)
        const moved = this.slots[end]
        if (moved) {
          const its = this.placesOf(moved)
          its[its.indexOf(end)] = at
        }
      }
      take(at, [this.list, this.last, this.slots, ...(Object.values(this.columns) as unknown[][])])
    }
  }

  /** Cuts the side back to its first `length` members. */
  cut(length: number): void {
    for (const member of this.list.slice(length)) this.at.delete(member.id)
    for (const list of [this.list, this.last, this.slots, ...(Object.values(this.columns) as unknown[][])]) list.length = length
  }
}

/** Removes the member at `at` from its parallel arrays by moving the last one into its place (the caller tells the moved one's item). */
function take(at: number, parallel: unknown[][]): void {
  for (const list of parallel) {
    const last = list.pop()
    if (at < list.length) list[at] = last
  }
}

/** The arrays followed through each mirror's changes. */
const ATTACHED = new WeakMap<MirroredItems, PoolArrays>()

/** Each line's keys, worked out once per line object (a mirrored item's lines are the same objects decision after decision). */
const LINE_KEYS = new WeakMap<FileSide, Set<string>>()

/** Every key a line can name a record by (its reference as written and without a bank's prefix, and reference-like words of its text). */
export function lineKeys(f: FileSide): Set<string> {
  let keys = LINE_KEYS.get(f)
  if (!keys) LINE_KEYS.set(f, (keys = keysOfLine(f)))
  return keys
}

function keysOfLine(f: FileSide): Set<string> {
  const keys = new Set<string>()
  if (f.reference) for (const k of referenceCandidates(f.reference)) if (k !== '') keys.add(k)
  for (const k of referenceTokens(f.reference ? `${f.description ?? ''} ${f.reference}` : f.description)) keys.add(k)
  // A line not read names records by the words of its text.
  if (f.notRead) for (const k of referenceTokens(f.notRead.text)) keys.add(k)
  return keys
}
