// Runs of the match engine over a session: its provider records and statement lines in, the result stored as the session's items and totals.
import {
  expectedAmount,
  pairKey,
  pendingTooLong,
  RULE_VERSION,
  ruleReason,
  type FeeBasis,
  type FileSide,
  type LinesApart,
  type Outcome,
  type ParseProblem,
  type StatementLineCount,
  type StatementMapping,
  type ProviderSide,
  type ReconItem,
  type SessionInfo
} from '../../shared/reconcile'
import { periodInWords } from '../../shared/periods'
import type { ReconContext } from './context'
import { finishNow, finishPausing, pauseFor } from '../jobs/pause'
import { runMatch, runMatchAsync, type MatchResult } from './engine'
import type { EngineFileRow, EngineProvider } from './match/types'
import { carriedInto, withCarried } from './carried'
import { foldSession, type FoldedDecisions } from './fold'
import { sessionEvents } from './audit'
import { learnedElsewhere, type Learned } from './learning/evidence'
import { ruleApplications, ruledLines } from './rules/applications'
import { PairingIndex } from './rules/pairing-index'
import { markRulesSettled } from './rules/settled'
import { sessionRules } from './rules/store'
import type { SessionItems } from './items'
import { sessionProviderSide } from './provider-side'
import { keyFilter, keysHeldTwice } from './key-filter'
import { PoolArrays } from './pool-arrays'
import { keysNamedBy, normaliseReference } from './references'
import { fileNamesOf, filePagesOf } from './report'
import { summing, totalsBasis } from './totals'
import type { Sessions } from './sessions'

export interface RunOutcome {
  session: SessionInfo
  counts: Record<Outcome, number>
  items: number
  leftOutFailed: number
  /** Records from just outside the period that no line claims (read because the window reaches past the period). */
  leftOutOutsidePeriod: number
  unreadable: number
  notes: string[]
}

/** What a run of a session reads, gathered once for the engine and for storing its answer. */
interface RunInputs {
  records: EngineProvider[]
  file: EngineFileRow[]
  folded: FoldedDecisions
  unreadable: number
  notes: string[]
  lines: StatementLineCount
  names: { fileNames: Map<string, string>; filePages: Map<string, number[]> }
}

export interface RunOptions {
  signal?: AbortSignal
  onProgress?: (phase: string, done: number, total: number) => void
}

export class Runs {
  constructor(
    private readonly ctx: ReconContext,
    private readonly sessions: Sessions,
    private readonly items: SessionItems
  ) {}

  /**
   * Runs the engine over the session's inputs and decisions (yielding to the event loop as it goes)
   * and stores the result in place of the last one, in one transaction of its own.
   */
  async run(sessionId: string, options: RunOptions = {}): Promise<RunOutcome> {
    const session = this.sessions.open(sessionId)
    const { inputs, result } = await this.matched(session, options)
    options.signal?.throwIfAborted()
    return this.ctx.db.transaction(() => finishNow(this.storing(session, inputs, result, options.onProgress)))()
  }

  /**
   * Runs the session inside the caller's transaction, pausing at every step of the match and of
   * storing its items (the CLI creates and runs a session as one transaction: Ctrl+C is heard at the
   * next step and rolls all of it back, and a process killed midway leaves no session half-made). The
   * caller has the connection to itself while this waits.
   */
  async runWithin(sessionId: string, options: { signal: AbortSignal; onProgress?: RunOptions['onProgress'] }): Promise<RunOutcome> {
    const session = this.sessions.open(sessionId)
    const { inputs, result } = await this.matched(session, options)
    return finishPausing(this.storing(session, inputs, result, options.onProgress), pauseFor(options.signal))
  }

  /** The engine's answer for the session as it stands, without storing anything (what a run would store), and its statements' lines counted. */
  async compute(
    session: SessionInfo,
    options: RunOptions = {}
  ): Promise<{ result: MatchResult; folded: FoldedDecisions; unreadable: number; notes: string[]; lines: StatementLineCount }> {
    const { inputs, result } = await this.matched(session, options)
    return { result, folded: inputs.folded, unreadable: inputs.unreadable, notes: inputs.notes, lines: inputs.lines }
  }

  /** The session's inputs as they stand, and the engine's answer for them (yielding to the event loop as it goes). */
  private async matched(session: SessionInfo, options: RunOptions): Promise<{ inputs: RunInputs; result: MatchResult }> {
    const inputs = this.inputs(session)
    const result = await runMatchAsync(inputs.records, inputs.file, session.settings, inputs.folded.engine, { ...options, ...inputs.names })
    return { inputs, result }
  }

  /**
   * The session matched again as it first was, before any decision of its own: none of its events,
   * and only what `learned` says of other sessions (nothing learned: the engine alone). Nothing is
   * stored; rules' evaluation replays closed months so.
   */
  replay(session: SessionInfo, learned: Learned): ReconItem[] {
    const inputs = this.inputs(session)
    const engine = {
      pinned: [],
      dismissed: learned.rejected,
      ...(learned.aliases.size > 0 ? { learned: learned.aliases } : {})
    }
    return materialise(runMatch(inputs.records, inputs.file, session.settings, engine, inputs.names), { notes: new Map() }, session).items
  }

  /**
   * What the session's events decide, and what the user decided in the profile's other sessions: a
   * pair rejected there is never suggested here, and what was confirmed there is evidence for the
   * suggestions (this session's own decisions stand over both).
   */
  decisions(session: SessionInfo): FoldedDecisions {
    return this.withLearned(session, foldSession(this.ctx.db, session.id))
  }

  /** What the session's own events decided (`decided`), with what the profile's other sessions taught. */
  withLearned(session: SessionInfo, decided: FoldedDecisions): FoldedDecisions {
    const learned = learnedElsewhere(this.ctx.db, session)
    const elsewhere = new Set(learned.rejected)
    for (const p of decided.engine.pinned) elsewhere.delete(pairKey(p.providerIds, p.fileIds))
    const engine = {
      ...decided.engine,
      ...(elsewhere.size > 0 ? { dismissed: new Set([...elsewhere, ...decided.engine.dismissed]) } : {}),
      ...(learned.aliases.size > 0 ? { learned: learned.aliases } : {})
    }
    return { ...decided, engine }
  }

  /** What a run reads: the provider side, the decisions, the statement lines in the period (those apart counted), and the names reasons give files by. */
  private inputs(session: SessionInfo): RunInputs {
    const side = sessionProviderSide(this.ctx.db, session)
    const folded = this.decisions(session)
    const counted = new LineCounter()
    const own = [...this.fileRows(session, counted), ...this.linesNotRead(session, folded.fixedLines, counted)]
    // What the account's last closed period left open comes in beside the period's own.
    const carried = carriedInto(this.ctx, this.sessions, this.items, session)
    const withIt = withCarried({ records: side.records, file: own }, carried)
    const { records, notes } = inFileCurrencies(withIt.records, withIt.file)
    return {
      records,
      file: withIt.file,
      folded,
      unreadable: side.unreadable,
      notes: [...side.notes, ...notes],
      lines: counted.result(this.statementLines(session), own, side.records),
      names: { fileNames: new Map([...carried.fileNames, ...fileNamesOf(session)]), filePages: filePagesOf(session) }
    }
  }

  /**
   * The profile's enabled rules applied to what the run left open: each application kept as an audit
   * event first, then folded in with the user's decisions (a pairing, like a match by hand, matched
   * again, and the rules given what that leaves open, until they decide nothing more).
   */
  private withRules(session: SessionInfo, inputs: RunInputs, result: MatchResult): { inputs: RunInputs; result: MatchResult } {
    // None for a replayed team session: it is decided through its workspace alone.
    const rules = sessionRules(this.ctx.db, session)
    if (rules.length === 0) return { inputs, result }
    let now = { inputs, result }
    // Each round decides lines never decided by a rule before: it ends.
    for (;;) {
      const applied = ruleApplications(
        rules,
        materialise(now.result, now.inputs.folded, session).items,
        ruledLines(sessionEvents(this.ctx.db, session.id))
      )
      if (applied.length === 0) return now
      this.ctx.db.transaction(() => {
        for (const payload of applied) this.ctx.record(session.id, { kind: 'rule', payload })
      })()
      const folded = this.decisions(session)
      const next = { ...now.inputs, folded }
      if (!applied.some((a) => a.action === 'pair')) return { inputs: next, result: now.result }
      now = { inputs: next, result: runMatch(next.records, next.file, session.settings, folded.engine, next.names) }
    }
  }

  /**
   * Stores a run's result as the session's items and totals, with its audit event, inside the
   * caller's transaction; each step stores a share of the items ('storing' progress).
   */
  private *storing(
    session: SessionInfo,
    given: RunInputs,
    matched: MatchResult,
    onProgress?: RunOptions['onProgress']
  ): Generator<void, RunOutcome> {
    const { inputs, result } = this.withRules(session, given, matched)
    const { folded, lines, unreadable, notes } = inputs
    const basis = feeBasis(result)
    // Each item made, summed and stored in turn: a million are never all held at once.
    const sum = summing(totalsBasis(session))
    const total = result.items.length
    onProgress?.('storing', 0, total)
    yield
    const stored = yield* this.items.replacing(session.id, sum.counting(materialisedItems(result, folded, session, basis)), (count) =>
      onProgress?.('storing', count, total)
    )
    const totals = sum.result(folded.adjustments, { lines, basis })
    const counts = totals.counts
    this.items.storeOutsideOpen(session.id, outsideLeftOpen(result))
    const keys = recordKeys(result.provider)
    this.items.storeRecordKeys(session.id, keyFilter(keys), keysHeldTwice(keys))
    this.ctx.db.prepare('update recon_sessions set last_run_at = ? where id = ?').run(this.ctx.now().toISOString(), session.id)
    this.items.storeTotals(session.id, session.settings, totals)
    // The open pool's arrays made now, as part of the run: the first decision after it does not gather them (pool-arrays.ts).
    if (session.source !== 'virtual-accounts') {
      const mirror = this.items.mirrored(session.id)
      PoolArrays.of(mirror, session)
      // The rules were given what the run left open until they decided nothing more: the next decision need not ask again.
      const rules = sessionRules(this.ctx.db, session)
      markRulesSettled(mirror, rules)
      // A pairing rule's lines and free records indexed now too (rules/pairing-index.ts).
      if (rules.some((r) => r.rule.action.type === 'pair')) PairingIndex.of(mirror, rules)
    }
    this.ctx.record(session.id, {
      kind: 'run',
      payload: {
        ruleVersion: RULE_VERSION,
        providerRecords: result.provider.length,
        fileRows: result.file.length,
        counts,
        leftOutFailed: result.leftOutFailed,
        leftOutOutsidePeriod: result.leftOutOutsidePeriod,
        unreadable
      }
    })
    return {
      session: this.sessions.get(session.id),
      counts,
      items: stored,
      leftOutFailed: result.leftOutFailed,
      leftOutOutsidePeriod: result.leftOutOutsidePeriod,
      unreadable,
      notes
    }
  }

  /** How many lines the session's statements hold, from what each import stored: its rows read, and its lines not read (each once). */
  private statementLines(session: SessionInfo): number {
    let n = 0
    for (const f of session.files) {
      const problems = this.ctx.db.prepare('select problems from recon_files where id = ?').pluck().get(f.id) as string
      n += f.rows + new Set((JSON.parse(problems) as ParseProblem[]).map((p) => p.line)).size
    }
    return n
  }

  /**
   * The lines of the session's files that could not be read in full (within the period, or of no
   * day that could be read): each stays part of the session, as it could be read, or as the user
   * read it by hand.
   */
  private linesNotRead(session: SessionInfo, fixed: FoldedDecisions['fixedLines'], counted: LineCounter): EngineFileRow[] {
    const files = this.ctx.db
      .prepare(
        `select f.id, f.problems, f.mapping, (select r.currency from recon_file_rows r where r.file_num = f.num limit 1) as currency
         from recon_session_files s join recon_files f on f.id = s.file_id where s.session_id = ? order by f.num`
      )
      .all(session.id) as { id: string; problems: string; mapping: string; currency: string | null }[]
    const out: EngineFileRow[] = []
    for (const file of files) {
      const problems = JSON.parse(file.problems) as ParseProblem[]
      if (problems.length === 0) continue
      // A line whose currency could not be read is taken to be in the statement's.
      const fallback = file.currency ?? (JSON.parse(file.mapping) as StatementMapping).defaultCurrency ?? 'XXX'
      const seen = new Set<number>()
      for (const p of problems) {
        if (seen.has(p.line)) continue
        seen.add(p.line)
        const id = `line:${file.id}:${p.line}`
        const read = p.read ?? { date: null, amountMinor: null, currency: null, reference: null, description: null }
        const byHand = fixed.get(id)
        const date = byHand?.date ?? read.date
        const currency = byHand?.currency ?? read.currency ?? fallback
        if (date !== null && (date < session.from || date > session.to)) {
          counted.outside(currency, byHand?.amountMinor ?? read.amountMinor)
          continue
        }
        const reason = `${p.message}${p.column ? ` (column "${p.column}")` : ''}`
        out.push({
          id,
          fileId: file.id,
          line: p.line,
          date: date ?? session.from,
          amountMinor: byHand?.amountMinor ?? read.amountMinor ?? 0,
          currency,
          reference: read.reference,
          description: read.description,
          counterparty: null,
          notRead: {
            text: p.text ?? '',
            reason,
            fixed: byHand !== undefined,
            dateRead: read.date !== null,
            amountRead: read.amountMinor !== null
          }
        })
      }
    }
    return out
  }

  /** The session's statement rows within its period; a row in two of its files counts once. Those outside the period, and the second of a row held twice, are counted apart. */
  private fileRows(session: SessionInfo, counted: LineCounter): EngineFileRow[] {
    // File by file, each in its key's order: one query joining and ordering them all sorted a million rows in a temporary tree.
    const files = this.ctx.db
      .prepare('select f.id, f.num from recon_session_files s join recon_files f on f.id = s.file_id where s.session_id = ? order by f.num')
      .all(session.id) as { id: string; num: number }[]
    const rowsOf = this.ctx.db
      .prepare(
        'select row_id, line, date, amount_minor, currency, reference, description, counterparty from recon_file_rows where file_num = ? order by line'
      )
      .raw(true)
    const seen = new Set<string>()
    const out: EngineFileRow[] = []
    for (const { id: fileId, num } of files)
      for (const [id, line, date, amount, currency, reference, description, counterparty] of rowsOf.iterate(num) as Iterable<
        [string, number, string, number, string, string | null, string | null, string | null]
      >) {
        // A row id is unique within its file: only a second file can hold one again.
        if (files.length > 1) {
          if (seen.has(id)) {
            counted.twice(currency, amount)
            continue
          }
          seen.add(id)
        }
        if (date < session.from || date > session.to) {
          counted.outside(currency, amount)
          continue
        }
        out.push({ id, fileId, line, date, amountMinor: amount, currency, reference, description, counterparty })
      }
    return out
  }
}

/** The session's statement lines that are in no item, counted apart per currency as a run reads them. */
class LineCounter {
  private readonly outsidePeriod = new Map<string, LinesApart>()
  private readonly sameLineTwice = new Map<string, LinesApart>()

  private static add(into: Map<string, LinesApart>, currency: string, minor: number | null): void {
    let l = into.get(currency)
    if (!l) into.set(currency, (l = { currency, count: 0, minor: 0, amountNotRead: 0 }))
    l.count++
    if (minor === null) l.amountNotRead++
    else l.minor += minor
  }

  /** A line dated outside the period (its amount, or null when it could not be read). */
  outside(currency: string, minor: number | null): void {
    LineCounter.add(this.outsidePeriod, currency, minor)
  }

  /** A row another statement of the session holds too. */
  twice(currency: string, minor: number): void {
    LineCounter.add(this.sameLineTwice, currency, minor)
  }

  result(inStatements: number, inPeriod: readonly EngineFileRow[], records: readonly EngineProvider[]): StatementLineCount {
    const providerCurrencies = [...new Set(records.map((p) => p.currency))].sort()
    const known = new Set(providerCurrencies)
    const sorted = (m: Map<string, LinesApart>): LinesApart[] => [...m.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1))
    return {
      inStatements,
      outsidePeriod: sorted(this.outsidePeriod),
      sameLineTwice: sorted(this.sameLineTwice),
      inOtherCurrencies: inPeriod.reduce((n, f) => n + (known.has(f.currency) ? 0 : 1), 0),
      providerCurrencies
    }
  }
}

/**
 * A statement holds one account's currencies: provider records in other currencies are left out
 * (and counted in a note), unless the statement names them by reference (then they show as
 * currency_differs).
 */
function inFileCurrencies(records: EngineProvider[], file: EngineFileRow[]): { records: EngineProvider[]; notes: string[] } {
  if (file.length === 0) return { records, notes: [] }
  const currencies = new Set(file.map((f) => f.currency))
  // The keys the lines name are gathered only when a record is in another currency (a million lines' words are not read for nothing).
  let named: Set<string> | null = null
  const left = new Map<string, number>()
  const kept = records.filter((p) => {
    if (currencies.has(p.currency)) return true
    named ??= keysNamedBy(file)
    const names = named
    if ([p.reference, p.serviceReference, ...(p.keys ?? [])].some((k) => k && names.has(normaliseReference(k)))) return true
    // Only the period's own records are counted: those read from just outside it are another period's.
    if (p.outsidePeriod !== true) left.set(p.currency, (left.get(p.currency) ?? 0) + 1)
    return false
  })
  const notes =
    left.size === 0
      ? []
      : [
          `left out, in currencies the statements do not hold: ${[...left]
            .sort()
            .map(([c, n]) => `${n} ${c}`)
            .join(', ')}`
        ]
  return { records: kept, notes }
}

/** Each record's keys once, as the exact keys compare them (its reference and service reference may be the same key), with no set made per record. */
function recordKeys(records: readonly EngineProvider[]): string[] {
  const keys: string[] = []
  for (const p of records) {
    const first = keys.length
    for (const k of [p.reference, p.serviceReference, ...(p.keys ?? [])]) {
      if (!k) continue
      const key = normaliseReference(k)
      if (key !== '' && keys.indexOf(key, first) === -1) keys.push(key)
    }
  }
  return keys
}

/** The ids of the records from just outside the period that no item holds: part of the open pool a decision matches again (pool-run.ts). */
export function outsideLeftOpen(result: MatchResult): string[] {
  const held = new Uint8Array(result.provider.length)
  for (let k = 0; k < result.items.length; k++) for (const i of result.items.providers(k)) held[i] = 1
  const ids: string[] = []
  result.provider.forEach((p, i) => {
    if (p.outsidePeriod === true && held[i] === 0) ids.push(p.id)
  })
  return ids.sort()
}

const NONE: readonly FileSide[] = Object.freeze([])

/**
 * The basis the statement shows the provider's money on: net of its fees when the session says so,
 * else as most matched pairs with fees were read (a settlement arrives net; a card payout gross).
 */
function feeBasis(result: MatchResult): FeeBasis {
  const { items } = result
  let netPairs = 0
  let grossPairs = 0
  for (let k = 0; k < items.length; k++) {
    const outcome = items.outcome(k)
    if (outcome !== 'matched' && outcome !== 'amount_differs') continue
    const providers = items.providers(k)
    if (providers.length === 0 || items.files(k).length === 0) continue
    if (!providers.some((i) => (result.provider[i] as EngineProvider).feesMinor !== 0)) continue
    if (items.net(k)) netPairs++
    else grossPairs++
  }
  if (result.netOfFees) return { net: true, from: 'setting', netPairs, grossPairs }
  return { net: netPairs > grossPairs, from: 'statement', netPairs, grossPairs }
}

/** An item's difference (the lines less what the records are expected to bring, on `net`), in its one currency: else null. */
function differenceOf(
  provider: readonly ProviderSide[],
  file: readonly { amountMinor: number }[],
  outcome: string,
  currencies: number,
  net: boolean
): number | null {
  return currencies === 1 && outcome !== 'not_read'
    ? file.reduce((s, f) => s + f.amountMinor, 0) - provider.reduce((s, p) => s + expectedAmount(p, net), 0)
    : null
}

/**
 * An item materialise read on the statement's basis (a record alone, or beside a line not read), read on `net` instead:
 * what a run makes of it once the basis turned (pool-run.ts, decisions.ts). Other items come back as they are.
 */
export function onTheBasis(item: ReconItem, net: boolean): ReconItem {
  if (item.file.length > 0 && item.outcome !== 'not_read') return item
  const currencies = new Set([...item.provider.map((p) => p.currency), ...item.file.map((f) => f.currency)]).size
  return { ...item, differenceMinor: differenceOf(item.provider, item.file, item.outcome, currencies, net), netOfFees: net }
}

/** What materialise needs of the session: its period's end and settings (a payment pending too long is said so). */
export type MaterialiseSession = Pick<SessionInfo, 'to' | 'settings'>

/**
 * The engine's result as report items: both sides' key fields, difference, decision and the user's
 * notes. A record with no line is read on the basis the statement shows (see feeBasis), so every
 * expected amount of the session is on one basis.
 */
export function materialise(
  result: MatchResult,
  folded: Pick<FoldedDecisions, 'notes'>,
  session: MaterialiseSession,
  /** The basis of the whole session, when the result is only part of it (pool-run.ts). */
  given?: FeeBasis
): { items: ReconItem[]; basis: FeeBasis } {
  const basis = given ?? feeBasis(result)
  return { items: [...materialisedItems(result, folded, session, basis)], basis }
}

/** The engine's result as report items (see materialise), made one at a time on the given basis. */
export function* materialisedItems(
  result: MatchResult,
  folded: Pick<FoldedDecisions, 'notes'>,
  session: MaterialiseSession,
  basis: FeeBasis
): Generator<ReconItem> {
  const { items } = result
  for (let k = 0; k < items.length; k++) {
    let more: string[] | null = null
    const provider: ProviderSide[] = items.providers(k).map((i) => {
      const p = result.provider[i] as MatchResult['provider'][number]
      if (p.outsidePeriod === true)
        (more ??= []).push(
          `the provider's record ${p.reference ?? p.serviceReference ?? 'with no reference'} is dated ${p.day}, outside the period: a line in the period settles it`
        )
      if (p.carried)
        (more ??= []).push(
          `the provider's record ${p.reference ?? p.serviceReference ?? 'with no reference'} (${p.day}) is carried forward from ${periodInWords(p.carried)}, where it was still open`
        )
      return {
        id: p.id,
        reference: p.reference,
        serviceReference: p.serviceReference,
        date: p.day,
        amountMinor: p.amountMinor,
        feesMinor: p.feesMinor,
        currency: p.currency,
        status: p.status,
        channel: p.channel,
        name: p.text,
        ...(p.carried ? { carried: p.carried } : {})
      }
    })
    const file: FileSide[] = items.files(k).map((i) => {
      const f = result.file[i] as EngineFileRow
      return {
        id: f.id,
        fileId: f.fileId,
        line: f.line,
        date: f.date,
        reference: f.reference,
        description: f.description,
        counterparty: f.counterparty,
        amountMinor: f.amountMinor,
        currency: f.currency,
        ...(f.notRead ? { notRead: f.notRead } : {}),
        ...(f.carried ? { carried: f.carried } : {})
      }
    })
    const key = pairKey(
      provider.map((p) => p.id),
      file.map((f) => f.id)
    )
    const currencies = new Set([...provider.map((p) => p.currency), ...file.map((f) => f.currency)])
    const outcome = items.outcome(k)
    // A pair is read as the engine matched it (or as the session reads every record); a record alone, or beside a line not read, on the statement's basis.
    const net = result.netOfFees || (file.length > 0 && outcome !== 'not_read' ? items.net(k) : basis.net)
    for (const f of file)
      if (f.carried)
        (more ??= []).push(
          `line ${f.line} of ${f.carried.file} (${f.date}) is carried forward from ${periodInWords(f.carried)}, where it was still open`
        )
    const fixedBy = file.length === 1 && !file[0]?.notRead ? NONE : file.filter((f) => f.notRead?.fixed)
    for (const f of fixedBy) (more ??= []).push(`line ${f.line} was read by hand: the file has "${f.notRead?.text}" (${f.notRead?.reason})`)
    const waited = pendingTooLong({ outcome, provider, file }, session.to, session.settings)
    if (waited !== null)
      (more ??= []).push(
        `pending at the provider for ${waited} days at the period's end (more than ${session.settings.pendingAgeDays}): ask the provider what became of it`
      )
    const differenceMinor = differenceOf(provider, file, outcome, currencies.size, net)
    const annotation = folded.notes.get(key)
    if (annotation?.rule) (more ??= []).push(ruleReason(annotation.rule))
    yield {
      key,
      outcome,
      provider,
      file,
      differenceMinor,
      netOfFees: net,
      score: items.score(k),
      // Most items share their reasons' array: a new one only for the few with more to say.
      // A pairing a rule made is the rule's, not the user's by hand: its reasons say so and nothing else.
      reasons:
        more === null
          ? (items.reasons(k) as string[])
          : [...(annotation?.rule ? items.reasons(k).filter((r) => r !== 'matched by hand') : items.reasons(k)), ...more],
      decision: items.decision(k),
      note: annotation?.note ?? null,
      reasonCode: annotation?.reasonCode ?? null,
      resolved: annotation?.resolved ?? false,
      decidedBy: annotation?.by ?? null,
      decidedAt: annotation?.at ?? null
    }
  }
}
