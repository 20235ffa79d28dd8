// The lines a pairing rule may pair and the free records it counts, kept per mirror and followed change by change (as the pool's arrays are), so a decision asks the rules again only of the lines whose count of free records it changes, not of every item of a million.
import { partRead, partsNaming, type StoredRule } from '../../../shared/rules'
import type { ProviderSide, ReconItem } from '../../../shared/reconcile'
import type { AuditPayloads } from '../../../shared/reconcile-events'
import { compareLeads, leadOf, type Lead, type MirroredItems } from '../items'
import { applicationOf, linePart, ruleFor } from './applications'
import { freeForPairing } from './preview'
import { rulesInForce } from './settled'

type By = 'reference' | 'customer'

/** A line an enabled rule decides (ruleFor), in the items' order; for a pairing, the field and part (as partRead reads it) it finds its record by. */
interface Decided {
  item: ReconItem
  stored: StoredRule
  lead: Lead
  by: By | null
  part: string | null
}

const NONE: ReadonlySet<string> = new Set()

/** The free records of one field, under each part that names them (partsNaming). */
class FreeRecords {
  private readonly byPart = new Map<string, Set<string>>()

  constructor(readonly by: By) {}

  add(record: ProviderSide): void {
    for (const part of partsNaming(record, this.by)) {
      const ids = this.byPart.get(part)
      if (ids) ids.add(record.id)
      else this.byPart.set(part, new Set([record.id]))
    }
  }

  remove(record: ProviderSide): void {
    for (const part of partsNaming(record, this.by)) {
      const ids = this.byPart.get(part)
      ids?.delete(record.id)
      if (ids?.size === 0) this.byPart.delete(part)
    }
  }

  named(part: string): ReadonlySet<string> {
    return this.byPart.get(part) ?? NONE
  }
}

/**
 * For one mirror under the enabled rules (a pairing rule among them): every line whose first holding rule pairs (ruleFor,
 * whatever the lines ruled before), by the part it names; and every free record (freeForPairing), by each part naming it.
 * Followed through the mirror's changes while attached; made again when the rules in force change.
 */
export class PairingIndex {
  /** The index of `mirror` under `rules`: the one attached to it, made when there is none for these rules. */
  static of(mirror: MirroredItems, rules: readonly StoredRule[]): PairingIndex {
    const inForce = rulesInForce(rules)
    const attached = ATTACHED.get(mirror)
    if (attached && attached.inForce === inForce) return attached
    const index = new PairingIndex(rules, inForce)
    for (const { item } of mirror.items.values()) index.put(item)
    ATTACHED.set(mirror, index)
    mirror.listeners.set('pairing', (key, stored) => {
      index.drop(key)
      if (stored) index.put(stored.item)
    })
    return index
  }

  /** The fields the pairing rules find records by. */
  private readonly fields: By[]
  private readonly free = new Map<By, FreeRecords>()
  /** The free records by id, and by the key of the item holding them. */
  private readonly records = new Map<string, ProviderSide>()
  private readonly freeOf = new Map<string, readonly ProviderSide[]>()
  /** The lines a pairing rule would decide, by item key, and by field and part. */
  private readonly lines = new Map<string, Decided>()
  private readonly naming = new Map<string, Set<Decided>>()

  private readonly enabled: readonly StoredRule[]

  private constructor(
    rules: readonly StoredRule[],
    private readonly inForce: string
  ) {
    const enabled = rules.filter((r) => r.enabled)
    this.enabled = enabled
    this.fields = [...new Set(enabled.flatMap((r) => (r.rule.action.type === 'pair' ? [r.rule.action.with] : [])))]
    for (const by of this.fields) this.free.set(by, new FreeRecords(by))
  }

  private put(item: ReconItem): void {
    if (item.provider.length > 0 && freeForPairing(item)) {
      this.freeOf.set(item.key, item.provider)
      for (const p of item.provider) {
        this.records.set(p.id, p)
        for (const f of this.free.values()) f.add(p)
      }
    }
    const line = this.decided(item, NONE)
    if (line?.part == null) return
    this.lines.set(item.key, line)
    const at = `${line.by}\n${line.part}`
    const named = this.naming.get(at)
    if (named) named.add(line)
    else this.naming.set(at, new Set([line]))
  }

  private drop(key: string): void {
    for (const p of this.freeOf.get(key) ?? []) {
      this.records.delete(p.id)
      for (const f of this.free.values()) f.remove(p)
    }
    this.freeOf.delete(key)
    const line = this.lines.get(key)
    if (!line) return
    this.lines.delete(key)
    const at = `${line.by}\n${line.part}`
    this.naming.get(at)?.delete(line)
    if (this.naming.get(at)?.size === 0) this.naming.delete(at)
  }

  /** How an enabled rule decides the item's line (ruleFor), if one does. */
  private decided(item: ReconItem, ruled: ReadonlySet<string>): Decided | null {
    const stored = ruleFor(this.enabled, item, ruled)
    if (!stored) return null
    const action = stored.rule.action
    if (action.type !== 'pair') return { item, stored, lead: leadOf(item), by: null, part: null }
    const part = linePart(item, action)
    return { item, stored, lead: leadOf(item), by: action.with, part: part === null ? null : partRead(part, action.with) }
  }

  /** The fields and parts (as `naming` keys them) a pairing rule finds the record by. */
  private partsOf(record: ProviderSide): string[] {
    return this.fields.flatMap((by) => partsNaming(record, by).map((part) => `${by}\n${part}`))
  }

  /** The indexed lines naming the record by a field a pairing rule finds it by. */
  private linesNaming(record: ProviderSide): Decided[] {
    return this.partsOf(record).flatMap((at) => [...(this.naming.get(at) ?? [])])
  }

  /**
   * What ruleApplications decides of the mirror's items with `gone` taken out and `made` put in, asking only the lines
   * made and the lines naming a record of an item gone or made that now count exactly one (and, after a pairing takes a
   * record, the later lines naming it). Exact when every other line the index holds names no free record or several, as when the rules given
   * the mirror's items decide nothing (rules/settled.ts), or when a round's pairings are matched in the next (their
   * records are in items gone then).
   */
  applications(gone: readonly ReconItem[], made: readonly ReconItem[], ruled: ReadonlySet<string>): AuditPayloads['rule'][] {
    const out = new Set([...gone, ...made].map((item) => item.key))
    const goneRecords = new Set(gone.flatMap((item) => item.provider.map((p) => p.id)))
    // The records made free now, by field and part.
    const madeFree = new Map(this.fields.map((by) => [by, new FreeRecords(by)]))
    const madeRecords = new Map<string, ProviderSide>()
    for (const item of made)
      if (freeForPairing(item))
        for (const p of item.provider) {
          madeRecords.set(p.id, p)
          for (const f of madeFree.values()) f.add(p)
        }
    // How many free records a part names, of the items as the change leaves them (without reading a name many share).
    const counted = new Map<string, number>()
    const countNamed = (by: By, part: string): number => {
      const at = `${by}\n${part}`
      const known = counted.get(at)
      if (known !== undefined) return known
      const before = this.free.get(by)?.named(part) ?? NONE
      let n = before.size
      for (const id of goneRecords) if (before.has(id)) n--
      for (const id of madeFree.get(by)?.named(part) ?? NONE) if (!before.has(id) || goneRecords.has(id)) n++
      counted.set(at, n)
      return n
    }
    // Those records (read only for a part naming few).
    const freeNamed = (by: By, part: string): string[] => {
      const ids = new Set<string>()
      for (const id of this.free.get(by)?.named(part) ?? NONE) if (!goneRecords.has(id)) ids.add(id)
      for (const id of madeFree.get(by)?.named(part) ?? NONE) ids.add(id)
      return [...ids]
    }
    const standing = (line: Decided): boolean => !out.has(line.item.key) && !ruled.has((line.item.file[0] as ReconItem['file'][number]).id)

    // Asked: every line made now, and each line whose records the change reaches that now counts exactly one (a line
    // counting more is asked only once a pairing before it takes one it names, below; one counting none never pairs).
    const queue: Decided[] = []
    const queued = new Set<string>()
    for (const item of made) {
      const line = this.decided(item, ruled)
      if (line && !queued.has(item.key)) {
        queue.push(line)
        queued.add(item.key)
      }
    }
    const reached = new Set<string>()
    for (const item of [...gone, ...made]) for (const p of item.provider) for (const at of this.partsOf(p)) reached.add(at)
    for (const at of reached) {
      const lines = this.naming.get(at)
      // The lines naming one part count the same records.
      const line = lines?.values().next().value
      if (!lines || !line || countNamed(line.by as By, line.part as string) !== 1) continue
      for (const l of lines)
        if (!queued.has(l.item.key) && standing(l)) {
          queue.push(l)
          queued.add(l.item.key)
        }
    }
    queue.sort((a, b) => compareLeads(a.lead, b.lead))

    const taken = new Set<string>()
    const applied: AuditPayloads['rule'][] = []
    for (let i = 0; i < queue.length; i++) {
      const { item, stored, lead, by, part } = queue[i] as Decided
      if (stored.rule.action.type !== 'pair') {
        applied.push(applicationOf(item, stored, null))
        continue
      }
      if (by === null || part === null) continue
      // Exactly one not taken yet (as ruleApplications counts): never so when more are named than were taken, plus one.
      const count = countNamed(by, part)
      const found = count === 0 || count > taken.size + 1 ? [] : freeNamed(by, part).filter((id) => !taken.has(id))
      if (found.length !== 1) continue
      const record = found[0] as string
      taken.add(record)
      applied.push(applicationOf(item, stored, record))
      // A later line naming the record now counts one fewer: asked in its place in the order.
      const held = madeRecords.get(record) ?? this.records.get(record)
      for (const line of held ? this.linesNaming(held) : [])
        if (standing(line) && !queued.has(line.item.key) && compareLeads(line.lead, lead) > 0) {
          queued.add(line.item.key)
          let at = i + 1
          while (at < queue.length && compareLeads((queue[at] as Decided).lead, line.lead) < 0) at++
          queue.splice(at, 0, line)
        }
    }
    return applied
  }
}

/** The index attached to each mirror (a new mirror gets a new one). */
const ATTACHED = new WeakMap<MirroredItems, PairingIndex>()
