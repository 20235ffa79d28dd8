// One match in progress, shared by its phases: both sides' columns in typed arrays, what is claimed, the items made so far, and how a set of records and lines is judged and claimed.
import { moneyText, parseMajor } from '../../../shared/money'
import {
  DEFAULT_SETTINGS,
  expectedAmount,
  lineWhere,
  pairKey,
  stillNotRead,
  type Outcome,
  type ReconSettings
} from '../../../shared/reconcile'
import type { EngineDecisions, EngineFileRow, EngineProvider } from './types'
import { dayNumber } from '../import/dates'
import { ItemColumns } from '../match-items'
import { pushTo } from './lanes'
import { slices } from './slices'

/** Statuses that say no money stayed: it never moved (failed, cancelled) or went back (reversed, refunded). */
const NO_MONEY = new Set(['failed', 'cancelled', 'reversed', 'refunded'])

/** What a status says of the money: 1 moved (successful, expected), 2 none moved or none kept (failed, cancelled, reversed, refunded), 0 not yet known (pending, unknown). */
export function moneyOf(status: string): number {
  return status === 'successful' || status === 'expected' ? 1 : NO_MONEY.has(status) ? 2 : 0
}

/** What the judge made of records and lines together. */
export interface Judgement {
  outcome: Outcome
  reason: string
  /** The records were read net of their fees. */
  net: boolean
}

/** The reason of a 1:1 match read net of fees (the fee itself is in the item's provider columns). */
export const NET_EQUAL = "same amount as the provider's net of its fees"

/** Reasons many items share: kept once, not per item. */
const SHARED_REASONS = new Set(['same amount', NET_EQUAL])

/** Why records and lines match net of fees: the whole fee for a group, shared wording for one record. */
function netReason(fees: number, currency: string): string {
  return `same amount net of fees ${moneyText(Math.abs(fees), currency)}`
}

/** The characters pairKey joins ids with. */
const JOINS = /[|+]/

export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * What the caller knows already of the records and lines (an open pool kept between decisions, pool-arrays.ts): the
 * columns a state reads from their objects, worked out as `load` works them out, and where an id is; so a state over
 * them does not read their objects again.
 */
export interface KnownMembers {
  readonly netOfFees: boolean
  readonly pColumns: RecordColumns
  readonly fColumns: LineColumns
  recordAt(id: string): number | undefined
  lineAt(id: string): number | undefined
}

/** A record's columns as `load` reads them: its day (dayNumber), amount, expectedAmount as the session and net, moneyOf, whether it has further keys, currency. */
export interface RecordColumns {
  day: number[]
  amount: number[]
  expected: number[]
  net: number[]
  money: number[]
  keyed: number[]
  currency: string[]
}

/** A line's columns as `load` reads them: its day, amount, whether still not read, currency. */
export interface LineColumns {
  day: number[]
  amount: number[]
  notRead: number[]
  currency: string[]
}

/** Appends a record's columns (its currency as `currency`: the same code, maybe one shared string for it). */
export function pushRecordColumns(c: RecordColumns, p: EngineProvider, netOfFees: boolean, currency = p.currency): void {
  c.day.push(dayNumber(p.day))
  c.amount.push(p.amountMinor)
  c.expected.push(expectedAmount(p, netOfFees))
  c.net.push(expectedAmount(p, true))
  c.money.push(moneyOf(p.status))
  c.keyed.push(p.keys && p.keys.length > 0 ? 1 : 0)
  c.currency.push(currency)
}

/** Appends a line's columns (its currency as in pushRecordColumns). */
export function pushLineColumns(c: LineColumns, f: EngineFileRow, currency = f.currency): void {
  c.day.push(dayNumber(f.date))
  c.amount.push(f.amountMinor)
  c.notRead.push(stillNotRead(f) ? 1 : 0)
  c.currency.push(currency)
}

export class MatchState {
  /**
   * One state kept as long as the class. V8 drops the optimised code of a class's methods when the
   * last object of its shape is collected, so the first match after a full collection (in the host,
   * between runs) would start in unoptimised code (see KeyIndex.keptForItsShape).
   */
  static readonly keptForItsShape = new MatchState([], [], DEFAULT_SETTINGS, { pinned: [], dismissed: new Set() })

  // What the passes read most, in typed arrays: a record's or line's day, amount and currency without
  // touching its object (a million objects scattered in memory are slow to visit out of order).
  readonly pDay: Int32Array
  readonly pAmount: Float64Array
  readonly pExpected: Float64Array
  /** Each record's amount less its fees: what reaches the bank when the provider settles net. */
  readonly pNet: Float64Array
  /** Whether records may also be read net of fees (per pair and group), not only as the session says. */
  readonly bothReadings: boolean
  readonly pCurrency: Uint16Array
  /** moneyOf each record's status. */
  readonly pMoney: Uint8Array
  /** Records with further keys (a virtual account's number). */
  readonly withKeys: number[] = []
  /** Lines not read (and not read by hand since): each is an item of its own, with any record it names. */
  readonly notRead: number[] = []
  readonly fDay: Int32Array
  readonly fAmount: Float64Array
  readonly fCurrency: Uint16Array
  readonly pClaimed: Uint8Array
  readonly fClaimed: Uint8Array
  readonly items: ItemColumns
  /**
   * Each item's lead, what orders the result: its first file line by content (a line's index), else
   * its first record (−1 − the record's index); noted as the item is made, while its members are at hand.
   */
  readonly leads: Int32Array
  readonly equalReason: string

  /** What is left after the exact keys, in content order, and each one's rank in it (ranks stand in for the order in every tie-break after). */
  readonly openP: number[] = []
  readonly openF: number[] = []
  readonly pRank: Int32Array
  readonly fRank: Int32Array

  private readonly currencies = new Map<string, number>()
  // Most rows share one currency: the last one is compared before any look-up.
  private lastCode = ''
  private lastId = -1
  private readonly toleranceCache = new Map<string, number>()
  /** The common reason pairs are shared, not built per item (a million matches, a handful of texts). */
  private readonly sharedReasons = new Map<string, Map<string, string[]>>()
  // The reasons of the last key match made (most items share them): no look-up per item.
  private matchedVia = ''
  private matchedReasons: readonly string[] = []
  /** A rejected pair; most sessions have none, so the key is only built when some exist. */
  private readonly anyDismissed: boolean

  constructor(
    readonly provider: readonly EngineProvider[],
    readonly file: readonly EngineFileRow[],
    readonly settings: ReconSettings,
    readonly decisions: EngineDecisions,
    /** Each statement's file name by its id, for reasons that name a line. */
    readonly fileNames: ReadonlyMap<string, string> = new Map(),
    /** A PDF statement's pages by its id: its lines are named by page and line. */
    readonly filePages: ReadonlyMap<string, readonly number[]> = new Map(),
    readonly known?: KnownMembers
  ) {
    this.pDay = new Int32Array(provider.length)
    this.pAmount = new Float64Array(provider.length)
    this.pExpected = new Float64Array(provider.length)
    this.pNet = new Float64Array(provider.length)
    this.bothReadings = !settings.netOfFees
    this.pCurrency = new Uint16Array(provider.length)
    this.pMoney = new Uint8Array(provider.length)
    this.fDay = new Int32Array(file.length)
    this.fAmount = new Float64Array(file.length)
    this.fCurrency = new Uint16Array(file.length)
    this.pClaimed = new Uint8Array(provider.length)
    this.fClaimed = new Uint8Array(file.length)
    this.items = new ItemColumns(provider.length, file.length)
    this.leads = new Int32Array(provider.length + file.length)
    this.pRank = new Int32Array(provider.length)
    this.fRank = new Int32Array(file.length)
    this.equalReason = settings.netOfFees ? NET_EQUAL : 'same amount'
    this.anyDismissed = decisions.dismissed.size > 0
    this.fDismissed = new Uint8Array(this.anyDismissed ? file.length : 0)
    this.pJoins = new Uint8Array(this.anyDismissed ? provider.length : 0)
  }

  /** Fills both sides' columns from their objects (or from what is known of them), a slice at a time. */
  *load(): Generator<void> {
    const { provider, file, settings, known } = this
    if (known && known.netOfFees !== settings.netOfFees) throw new Error('the known records were read under another fee basis')
    const pc = known?.pColumns
    yield* slices(provider.length, (from, to) => {
      for (let i = from; i < to; i++) {
        if (pc) {
          if (pc.keyed[i] === 1) this.withKeys.push(i)
          this.pDay[i] = pc.day[i] as number
          this.pAmount[i] = pc.amount[i] as number
          this.pExpected[i] = pc.expected[i] as number
          this.pNet[i] = pc.net[i] as number
          this.pCurrency[i] = this.currencyId(pc.currency[i] as string)
          this.pMoney[i] = pc.money[i] as number
          continue
        }
        const p = provider[i] as EngineProvider
        if (p.keys && p.keys.length > 0) this.withKeys.push(i)
        this.pDay[i] = dayNumber(p.day)
        this.pAmount[i] = p.amountMinor
        this.pExpected[i] = expectedAmount(p, settings.netOfFees)
        this.pNet[i] = expectedAmount(p, true)
        this.pCurrency[i] = this.currencyId(p.currency)
        this.pMoney[i] = moneyOf(p.status)
      }
    })
    const fc = known?.fColumns
    yield* slices(file.length, (from, to) => {
      for (let i = from; i < to; i++) {
        let notRead: boolean
        if (fc) {
          this.fDay[i] = fc.day[i] as number
          this.fAmount[i] = fc.amount[i] as number
          this.fCurrency[i] = this.currencyId(fc.currency[i] as string)
          notRead = fc.notRead[i] === 1
        } else {
          const f = file[i] as EngineFileRow
          this.fDay[i] = dayNumber(f.date)
          this.fAmount[i] = f.amountMinor
          this.fCurrency[i] = this.currencyId(f.currency)
          notRead = stillNotRead(f)
        }
        if (notRead) {
          this.fClaimed[i] = 1
          this.notRead.push(i)
        }
      }
    })
  }

  private currencyId(code: string): number {
    if (code === this.lastCode) return this.lastId
    let id = this.currencies.get(code)
    if (id === undefined) this.currencies.set(code, (id = this.currencies.size))
    this.lastCode = code
    this.lastId = id
    return id
  }

  /** 1 for a record from just outside the period (read because the window reaches past it), else 0. */
  outside(i: number): number {
    return (this.provider[i] as EngineProvider).outsidePeriod === true ? 1 : 0
  }

  /** Content order of two provider records: day, amount, id. */
  readonly pOrder = (a: number, b: number): number =>
    (this.pDay[a] as number) - (this.pDay[b] as number) ||
    (this.pAmount[a] as number) - (this.pAmount[b] as number) ||
    compareText((this.provider[a] as EngineProvider).id, (this.provider[b] as EngineProvider).id)

  /** Content order of two file rows: day, amount, id. */
  readonly fOrder = (a: number, b: number): number =>
    (this.fDay[a] as number) - (this.fDay[b] as number) ||
    (this.fAmount[a] as number) - (this.fAmount[b] as number) ||
    compareText((this.file[a] as EngineFileRow).id, (this.file[b] as EngineFileRow).id)

  readonly byPRank = (a: number, b: number): number => (this.pRank[a] as number) - (this.pRank[b] as number)
  readonly byFRank = (a: number, b: number): number => (this.fRank[a] as number) - (this.fRank[b] as number)

  /** What the file should show for record i (net of fees when the session nets them). */
  readonly expected = (i: number): number => this.pExpected[i] as number

  /** Record i net of its fees. */
  readonly net = (i: number): number => this.pNet[i] as number

  /** Record i's lane as a number: money of one currency moving one way (only such records and lines are ever compared in a group). */
  pLane(i: number): number {
    return (this.pCurrency[i] as number) * 2 + ((this.pExpected[i] as number) >= 0 ? 0 : 1)
  }

  /** Line i's lane, numbered as records' are. */
  fLane(i: number): number {
    return (this.fCurrency[i] as number) * 2 + ((this.fAmount[i] as number) >= 0 ? 0 : 1)
  }

  /** Whether record i reads differently net of fees, and the session lets it be read so. */
  hasNetReading(i: number): boolean {
    return this.bothReadings && this.pNet[i] !== this.pAmount[i]
  }

  /** A record by what the user knows it by: its reference, else its service reference. */
  recordName(i: number): string {
    const p = this.provider[i] as EngineProvider
    const name = p.reference ?? p.serviceReference
    return name ? `"${name}"` : `the ${p.day} record of ${moneyText(p.amountMinor, p.currency)} with no reference`
  }

  /** A statement line as the user finds it: "line 14 of statement.csv". */
  lineName(f: number): string {
    const row = this.file[f] as EngineFileRow
    return `${lineWhere(row.line, this.filePages.get(row.fileId))} of ${this.fileNames.get(row.fileId) ?? 'the file'}`
  }

  /** Several lines of one file as "lines 3, 4 and 9 of statement.csv"; of several files, each named. */
  linesName(fs: readonly number[]): string {
    const byFile = new Map<string, number[]>()
    for (const f of fs) pushTo(byFile, (this.file[f] as EngineFileRow).fileId, (this.file[f] as EngineFileRow).line)
    return [...byFile]
      .map(([fileId, lines]) => {
        const sorted = lines.sort((a, b) => a - b)
        const pages = this.filePages.get(fileId)
        const named = pages ? sorted.map((l) => lineWhere(l, pages)) : sorted.map(String)
        const list =
          sorted.length === 1
            ? pages
              ? named[0]
              : `line ${named[0]}`
            : `${pages ? '' : 'lines '}${named.slice(0, -1).join(pages ? '; ' : ', ')} and ${named[named.length - 1]}`
        return `${list} of ${this.fileNames.get(fileId) ?? 'the file'}`
      })
      .join('; ')
  }

  /** The amount tolerance in a currency's minor units (0 when the currency cannot hold it). */
  tol(currency: string): number {
    let t = this.toleranceCache.get(currency)
    if (t === undefined) {
      try {
        t = Math.abs(parseMajor(this.settings.amountTolerance, currency))
      } catch {
        t = 0
      }
      this.toleranceCache.set(currency, t)
    }
    return t
  }

  isDismissed(ps: readonly string[], fs: readonly string[]): boolean {
    return this.anyDismissed && this.decisions.dismissed.has(pairKey(ps, fs))
  }

  /**
   * One record and one line: the ids are only looked at when something was rejected at all, and then through the
   * rejected pairs by line (no key is made per candidate), unless an id holds a character pairKey joins ids with.
   */
  pairDismissed(p: number, f: number): boolean {
    if (!this.anyDismissed) return false
    // Most lines are in no rejected pair: told once per line, not per candidate.
    let seen = this.fDismissed[f] as number
    if (seen === 0) {
      const id = (this.file[f] as EngineFileRow).id
      const byLine = this.dismissedByLine()
      seen = this.fDismissed[f] = JOINS.test(id) ? 3 : byLine.has(id) || this.maybeLines.has(id) ? 2 : 1
    }
    if (seen === 1) return false
    const record = (this.provider[p] as EngineProvider).id
    const line = (this.file[f] as EngineFileRow).id
    let joins = this.pJoins[p] as number
    if (joins === 0) joins = this.pJoins[p] = JOINS.test(record) ? 2 : 1
    if (seen === 3 || joins === 2) return this.decisions.dismissed.has(pairKey([record], [line]))
    // Where the records are known by place (a pool kept between decisions), the line's rejected records as places.
    if (this.known) return this.dismissedAt(f, line).has(p)
    return this.dismissedByLine().get(line)?.has(record) === true
  }

  private readonly dismissedPlaces = new Map<number, Set<number>>()

  /** The places of the records (whose ids hold no joining character) rejected with line `f`. */
  private dismissedAt(f: number, line: string): Set<number> {
    let places = this.dismissedPlaces.get(f)
    if (!places) {
      places = new Set()
      for (const id of this.dismissedByLine().get(line) ?? []) {
        const at = this.known?.recordAt(id)
        if (at !== undefined) places.add(at)
      }
      this.dismissedPlaces.set(f, places)
    }
    return places
  }

  /** Per line: 0 not yet told, 1 in no rejected pair, 2 maybe in one (looked up per record), 3 its id holds a joining character. */
  private readonly fDismissed: Uint8Array
  /** Per record, once asked: 1 its id holds no joining character, 2 it does. */
  private readonly pJoins: Uint8Array
  private byLine: Map<string, Set<string>> | null = null
  /**
   * The lines a rejected key not read into byLine may end in (its ids hold a joining character, or it is of several
   * records or lines): a line whose id holds none can be in such a key only as the part after its last '|'.
   */
  private readonly maybeLines = new Set<string>()

  /** The rejected pairs of one record and one line whose ids hold no joining character: the records by line. */
  private dismissedByLine(): Map<string, Set<string>> {
    if (this.byLine) return this.byLine
    this.byLine = new Map()
    for (const key of this.decisions.dismissed) {
      const [record, line, ...more] = key.split('|')
      if (more.length > 0 || record === undefined || line === undefined || JOINS.test(record) || JOINS.test(line)) {
        const tail = key.slice(key.lastIndexOf('|') + 1)
        if (!tail.includes('+')) this.maybeLines.add(tail)
        continue
      }
      let records = this.byLine.get(line)
      if (!records) this.byLine.set(line, (records = new Set()))
      records.add(record)
    }
    return this.byLine
  }

  /** The outcome of records and rows that belong together (by key, decision or accepted group), why, and whether the records were read net of fees. */
  judge(ps: readonly number[], fs: readonly number[]): Judgement {
    const { provider, file } = this
    const currency = (provider[ps[0] as number] as EngineProvider).currency
    let oneCurrency = true
    let fileSum = 0
    let expectedSum = 0
    let netSum = 0
    let amountSum = 0
    let moved = true
    for (const i of fs) {
      const f = file[i] as EngineFileRow
      fileSum += f.amountMinor
      if (f.currency !== currency) oneCurrency = false
    }
    for (const i of ps) {
      const p = provider[i] as EngineProvider
      expectedSum += this.expected(i)
      netSum += this.net(i)
      amountSum += p.amountMinor
      if (p.currency !== currency) oneCurrency = false
      if (this.pMoney[i] !== 1) moved = false
    }
    const forcedNet = !this.bothReadings
    const sign = Math.sign(expectedSum) || Math.sign(amountSum)
    const fileShowsMoney = fileSum !== 0 && Math.sign(fileSum) === sign
    if (!oneCurrency) {
      const pCur = [...new Set(ps.map((i) => (provider[i] as EngineProvider).currency))]
      const fCur = [...new Set(fs.map((i) => (file[i] as EngineFileRow).currency))]
      return {
        outcome: 'currency_differs',
        reason: `the provider's ${ps.length === 1 ? 'record is' : 'records are'} in ${pCur.join('/')}, the file's ${fs.length === 1 ? 'line' : 'lines'} in ${fCur.join('/')}`,
        net: forcedNet
      }
    }
    if (!moved && fileShowsMoney) {
      const notMoved = [...new Set(ps.map((i) => (provider[i] as EngineProvider).status).filter((s) => moneyOf(s) !== 1))]
      return { outcome: 'status_differs', reason: `the provider says ${notMoved.join('/')}, but the file shows the money`, net: forcedNet }
    }
    if (moved && !fileShowsMoney)
      return {
        outcome: 'status_differs',
        reason: 'the provider says successful, but the file shows no money in that direction',
        net: forcedNet
      }
    const tolerance = this.tol(currency)
    const gross = fileSum - expectedSum
    const fees = amountSum - netSum
    // Read net of fees too (unless the session says how to read every record): a settlement arrives net.
    const netDifference = this.bothReadings && netSum !== amountSum ? fileSum - netSum : null
    if (gross === 0) return { outcome: 'matched', reason: this.equalReason, net: forcedNet }
    if (netDifference === 0) return { outcome: 'matched', reason: ps.length === 1 ? NET_EQUAL : netReason(fees, currency), net: true }
    const useNet = netDifference !== null && Math.abs(netDifference) < Math.abs(gross)
    const difference = useNet ? (netDifference as number) : gross
    const net = useNet || forcedNet
    const against = net ? `the provider's amount net of fees (${moneyText(Math.abs(fees), currency)})` : "the provider's amount"
    if (Math.abs(difference) <= tolerance)
      return { outcome: 'matched', reason: `within the tolerance: ${moneyText(Math.abs(difference), currency)} apart from ${against}`, net }
    return {
      outcome: 'amount_differs',
      reason: `the file shows ${moneyText(Math.abs(difference), currency)} ${difference < 0 ? 'less' : 'more'} than ${against}`,
      net
    }
  }

  /** How the members were found and the judge's reason, shared between items that say the same. */
  reasonsOf(via: string, reason: string): string[] {
    if (!SHARED_REASONS.has(reason)) return [via, reason]
    let byReason = this.sharedReasons.get(via)
    if (!byReason) this.sharedReasons.set(via, (byReason = new Map()))
    let shared = byReason.get(reason)
    if (!shared) byReason.set(reason, (shared = Object.freeze([via, reason]) as string[]))
    return shared
  }

  /** An item of at most one record and one line (−1 for none), made without arrays: most items. */
  emitOne(outcome: Outcome, p: number, f: number, score: number | null, reasons: readonly string[]): number {
    const k = this.items.addOne(outcome, p, f, score, reasons)
    this.leads[k] = f >= 0 ? f : -1 - p
    return k
  }

  emit(outcome: Outcome, ps: readonly number[], fs: readonly number[], score: number | null, reasons: readonly string[]): number {
    const k = this.items.add(outcome, ps, fs, score, reasons)
    if (fs.length > 0) this.leads[k] = fs.reduce((best, i) => (this.fOrder(i, best) < 0 ? i : best))
    else this.leads[k] = -1 - ps.reduce((best, i) => (this.pOrder(i, best) < 0 ? i : best))
    return k
  }

  claimOne(outcome: Outcome, p: number, f: number, score: number | null, reasons: readonly string[]): number {
    if (p >= 0) this.pClaimed[p] = 1
    if (f >= 0) this.fClaimed[f] = 1
    return this.emitOne(outcome, p, f, score, reasons)
  }

  claim(outcome: Outcome, ps: readonly number[], fs: readonly number[], score: number | null, reasons: readonly string[]): number {
    for (const i of ps) this.pClaimed[i] = 1
    for (const i of fs) this.fClaimed[i] = 1
    return this.emit(outcome, ps, fs, score, reasons)
  }

  /** Claims one record and one line that belong together: the common case, the same money, is decided without the sums of judge. */
  claimPair(p: number, f: number, via: string): number {
    const target = this.pExpected[p] as number
    if (target !== 0 && this.fAmount[f] === target && this.fCurrency[f] === this.pCurrency[p] && this.pMoney[p] === 1) {
      if (via !== this.matchedVia) this.matchedReasons = this.reasonsOf((this.matchedVia = via), this.equalReason)
      return this.marked(this.claimOne('matched', p, f, null, this.matchedReasons), !this.bothReadings)
    }
    // The line is what reached the bank: the record less its fees.
    if (this.hasNetReading(p) && this.fAmount[f] === this.pNet[p] && this.fCurrency[f] === this.pCurrency[p] && this.pMoney[p] === 1)
      return this.marked(this.claimOne('matched', p, f, null, this.reasonsOf(via, NET_EQUAL)), true)
    const { outcome, reason, net } = this.judge([p], [f])
    return this.marked(this.claimOne(outcome, p, f, null, this.reasonsOf(via, reason)), net)
  }

  /** Claims records and lines that belong together (by key, decision or accepted group). */
  claimTogether(ps: readonly number[], fs: readonly number[], via: string): number {
    if (ps.length === 1 && fs.length === 1) return this.claimPair(ps[0] as number, fs[0] as number, via)
    const { outcome, reason, net } = this.judge(ps, fs)
    return this.marked(this.claim(outcome, ps, fs, null, this.reasonsOf(via, reason)), net)
  }

  /** Notes that item k's records were read net of their fees (when `net`); returns k. */
  marked(k: number, net: boolean): number {
    if (net) this.items.net[k] = 1
    return k
  }

  /** Ranks what the exact keys left open (records whose money did not fail, and lines), in content order. */
  rankOpen(): void {
    const { provider, file, openP, openF } = this
    for (let i = 0; i < provider.length; i++) if (!this.pClaimed[i] && this.pMoney[i] !== 2) openP.push(i)
    openP.sort(this.pOrder)
    for (let i = 0; i < file.length; i++) if (!this.fClaimed[i]) openF.push(i)
    openF.sort(this.fOrder)
    openP.forEach((i, r) => (this.pRank[i] = r))
    openF.forEach((i, r) => (this.fRank[i] = r))
  }
}
