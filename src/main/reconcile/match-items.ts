// The engine's items held as typed columns rather than a million small objects: each item's outcome, members, score, reasons and decision, read in the result's order.
import { OUTCOMES, type Outcome } from '../../shared/reconcile'

/** One item or group: indexes into the provider and file arrays the result carries (the inputs, as given). */
export interface MatchItem {
  outcome: Outcome
  p: number[]
  f: number[]
  score: number | null
  reasons: readonly string[]
  decision: 'accepted' | 'manual' | null
}

const OUTCOME_CODE = new Map<Outcome, number>(OUTCOMES.map((o, k) => [o, k]))
const DECISIONS = [null, 'accepted', 'manual'] as const
const DECISION_CODE = new Map<MatchItem['decision'], number>(DECISIONS.map((d, k) => [d, k]))

/**
 * The items as the engine makes them, in the order it makes them. Every item claims at least one
 * record or line and none is claimed twice, so there are at most as many items as records and
 * lines together, and each column is sized once.
 */
export class ItemColumns {
  count = 0
  readonly outcome: Uint8Array
  readonly decision: Uint8Array
  /** 1 when the item's records were read net of their fees (the file shows what reached the bank). */
  readonly net: Uint8Array
  /** NaN for no score. */
  readonly score: Float64Array
  readonly reasons: (readonly string[])[]
  /** Item k's records are pMembers[pEnd[k − 1] … pEnd[k]) (from 0 for the first item); its lines likewise. */
  readonly pEnd: Int32Array
  readonly fEnd: Int32Array
  readonly pMembers: Int32Array
  readonly fMembers: Int32Array

  constructor(records: number, lines: number) {
    const most = records + lines
    this.outcome = new Uint8Array(most)
    this.reasons = new Array<readonly string[]>(most)
    this.decision = new Uint8Array(most)
    this.net = new Uint8Array(most)
    this.score = new Float64Array(most)
    this.pEnd = new Int32Array(most)
    this.fEnd = new Int32Array(most)
    this.pMembers = new Int32Array(records)
    this.fMembers = new Int32Array(lines)
  }

  /** An item of at most one record and one line (−1 for none): the common case, with no arrays made. Returns its number. */
  addOne(outcome: Outcome, p: number, f: number, score: number | null, reasons: readonly string[]): number {
    const k = this.open(outcome, score, reasons)
    let pUsed = k === 0 ? 0 : (this.pEnd[k - 1] as number)
    let fUsed = k === 0 ? 0 : (this.fEnd[k - 1] as number)
    if (p >= 0) this.pMembers[pUsed++] = p
    if (f >= 0) this.fMembers[fUsed++] = f
    this.close(k, pUsed, fUsed)
    return k
  }

  /** An item of any number of records and lines. Returns its number. */
  add(outcome: Outcome, ps: readonly number[], fs: readonly number[], score: number | null, reasons: readonly string[]): number {
    const k = this.open(outcome, score, reasons)
    let pUsed = k === 0 ? 0 : (this.pEnd[k - 1] as number)
    let fUsed = k === 0 ? 0 : (this.fEnd[k - 1] as number)
    for (const p of ps) this.pMembers[pUsed++] = p
    for (const f of fs) this.fMembers[fUsed++] = f
    this.close(k, pUsed, fUsed)
    return k
  }

  setDecision(k: number, decision: MatchItem['decision']): void {
    this.decision[k] = DECISION_CODE.get(decision) as number
  }

  /** The outcome last coded: most items share it, so most need no look-up. */
  private lastOutcome: Outcome | null = null
  private lastCode = 0

  private open(outcome: Outcome, score: number | null, reasons: readonly string[]): number {
    const k = this.count
    if (k === this.outcome.length) throw new Error('A record or line was put in two items.')
    if (outcome !== this.lastOutcome) {
      this.lastOutcome = outcome
      this.lastCode = OUTCOME_CODE.get(outcome) as number
    }
    this.outcome[k] = this.lastCode
    this.score[k] = score ?? NaN
    this.reasons[k] = reasons
    return k
  }

  /** Ends item k at these member counts; more members than records or lines means one was claimed twice (its writes past the end were dropped). */
  private close(k: number, pUsed: number, fUsed: number): void {
    if (pUsed > this.pMembers.length || fUsed > this.fMembers.length) throw new Error('A record or line was put in two items.')
    this.pEnd[k] = pUsed
    this.fEnd[k] = fUsed
    this.count = k + 1
  }
}

/** The result's items: item k of the result is the columns' item order[k]. */
export class MatchItems implements Iterable<MatchItem> {
  /** Kept as long as the class, as KeyIndex's is: the optimised code of the methods below lives as long as an object of their shape. */
  static readonly keptForItsShape = new MatchItems(new ItemColumns(1, 0), new Int32Array(0))

  constructor(
    private readonly columns: ItemColumns,
    private readonly order: Int32Array
  ) {}

  get length(): number {
    return this.order.length
  }

  outcome(k: number): Outcome {
    return OUTCOMES[this.columns.outcome[this.order[k] as number] as number] as Outcome
  }

  /** Item k's provider records, as indexes into the result's provider array. */
  providers(k: number): number[] {
    return this.members(this.columns.pMembers, this.columns.pEnd, k)
  }

  /** Item k's statement lines, as indexes into the result's file array. */
  files(k: number): number[] {
    return this.members(this.columns.fMembers, this.columns.fEnd, k)
  }

  private members(members: Int32Array, ends: Int32Array, k: number): number[] {
    const j = this.order[k] as number
    return Array.from(members.subarray(j === 0 ? 0 : ends[j - 1], ends[j]))
  }

  score(k: number): number | null {
    const s = this.columns.score[this.order[k] as number] as number
    return Number.isNaN(s) ? null : s
  }

  reasons(k: number): readonly string[] {
    return this.columns.reasons[this.order[k] as number] as readonly string[]
  }

  /** Whether item k's records were read net of their fees. */
  net(k: number): boolean {
    return this.columns.net[this.order[k] as number] === 1
  }

  decision(k: number): MatchItem['decision'] {
    return DECISIONS[this.columns.decision[this.order[k] as number] as number] as MatchItem['decision']
  }

  item(k: number): MatchItem {
    return {
      outcome: this.outcome(k),
      p: this.providers(k),
      f: this.files(k),
      score: this.score(k),
      reasons: this.reasons(k),
      decision: this.decision(k)
    }
  }

  *[Symbol.iterator](): Iterator<MatchItem> {
    for (let k = 0; k < this.length; k++) yield this.item(k)
  }
}
