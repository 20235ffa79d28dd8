// Runs of the match engine over a session: its provider records and statement lines in, the result stored as the session's items and totals.
import {
  expectedAmount,
  pairKey,
  RULE_VERSION,
  type FileSide,
  type Outcome,
  type ParseProblem,
  type StatementMapping,
  type ProviderSide,
  type ReconItem,
  type SessionInfo
} from '../../shared/reconcile'
import type { ReconContext } from './context'
import { runMatchAsync, type EngineFileRow, type EngineProvider, type MatchResult } from './engine'
import { foldSession, type FoldedDecisions } from './fold'
import type { SessionItems } from './items'
import { outsideThePeriod, sessionProviderSide } from './provider-side'
import { keysNamedBy, normaliseReference } from './references'
import { fileNamesOf, filePagesOf, summarise } from './report'
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

  /** Runs the engine over the session's inputs and decisions (yielding to the event loop as it goes) and stores the result in place of the last one. */
  async run(sessionId: string, options: RunOptions = {}): Promise<RunOutcome> {
    const session = this.sessions.open(sessionId)
    const { result, folded, unreadable, notes } = await this.compute(session, options)
    const items = materialise(result, folded)
    const totals = summarise(items, session.settings, folded.adjustments)
    const counts = totals.counts
    options.signal?.throwIfAborted()
    this.ctx.db.transaction(() => {
      this.items.replaceAll(sessionId, items)
      this.ctx.db.prepare('update recon_sessions set last_run_at = ? where id = ?').run(this.ctx.now().toISOString(), sessionId)
      this.items.storeTotals(sessionId, session.settings, totals)
      this.ctx.record(sessionId, {
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
    })()
    return {
      session: this.sessions.get(sessionId),
      counts,
      items: items.length,
      leftOutFailed: result.leftOutFailed,
      leftOutOutsidePeriod: result.leftOutOutsidePeriod,
      unreadable,
      notes
    }
  }

  /** The engine's answer for the session as it stands, without storing anything (what a run would store). */
  async compute(
    session: SessionInfo,
    options: RunOptions = {}
  ): Promise<{ result: MatchResult; folded: FoldedDecisions; unreadable: number; notes: string[] }> {
    const side = sessionProviderSide(this.ctx.db, session)
    const folded = foldSession(this.ctx.db, session.id)
    const file = [...this.fileRows(session), ...this.linesNotRead(session, folded.fixedLines)]
    const { records, notes } = inFileCurrencies(side.records, file)
    const result = await runMatchAsync(records, file, session.settings, folded.engine, {
      ...options,
      fileNames: fileNamesOf(session),
      filePages: filePagesOf(session)
    })
    return { result, folded, unreadable: side.unreadable, notes: [...side.notes, ...notes] }
  }

  /**
   * The lines of the session's files that could not be read in full (within the period, or of no
   * day that could be read): each stays part of the session, as it could be read, or as the user
   * read it by hand.
   */
  private linesNotRead(session: SessionInfo, fixed: FoldedDecisions['fixedLines']): EngineFileRow[] {
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
        if (date !== null && (date < session.from || date > session.to)) continue
        const reason = `${p.message}${p.column ? ` (column "${p.column}")` : ''}`
        out.push({
          id,
          fileId: file.id,
          line: p.line,
          date: date ?? session.from,
          amountMinor: byHand?.amountMinor ?? read.amountMinor ?? 0,
          currency: byHand?.currency ?? read.currency ?? fallback,
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

  /** The session's statement rows within its period; a row in two of its files counts once. */
  private fileRows(session: SessionInfo): EngineFileRow[] {
    const rows = this.ctx.db
      .prepare(
        `select f.id, r.row_id, r.line, r.date, r.amount_minor, r.currency, r.reference, r.description, r.counterparty
         from recon_session_files s join recon_files f on f.id = s.file_id join recon_file_rows r on r.file_num = f.num
         where s.session_id = ? and r.date >= ? and r.date <= ? order by f.num, r.line`
      )
      .raw(true)
      .iterate(session.id, session.from, session.to) as Iterable<
      [string, string, number, string, number, string, string | null, string | null, string | null]
    >
    const seen = new Set<string>()
    const out: EngineFileRow[] = []
    for (const [fileId, id, line, date, amount, currency, reference, description, counterparty] of rows) {
      if (seen.has(id)) continue
      seen.add(id)
      out.push({ id, fileId, line, date, amountMinor: amount, currency, reference, description, counterparty })
    }
    return out
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
  const named = keysNamedBy(file)
  const left = new Map<string, number>()
  const kept = records.filter((p) => {
    if (currencies.has(p.currency)) return true
    if ([p.reference, p.serviceReference, ...(p.keys ?? [])].some((k) => k && named.has(normaliseReference(k)))) return true
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

const NONE: readonly FileSide[] = Object.freeze([])

/** The engine's result as report items: both sides' key fields, difference, decision and the user's notes. */
export function materialise(result: MatchResult, folded: Pick<FoldedDecisions, 'notes'>): ReconItem[] {
  const { items } = result
  const out: ReconItem[] = new Array(items.length)
  for (let k = 0; k < items.length; k++) {
    let outside: string[] | null = null
    const provider: ProviderSide[] = items.providers(k).map((i) => {
      const p = result.provider[i] as MatchResult['provider'][number]
      if (p.outsidePeriod === true)
        (outside ??= []).push(
          `the provider's record ${p.reference ?? p.serviceReference ?? 'with no reference'} is dated ${p.day}, outside the period: a line in the period settles it`
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
        name: p.text
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
        ...(f.notRead ? { notRead: f.notRead } : {})
      }
    })
    const key = pairKey(
      provider.map((p) => p.id),
      file.map((f) => f.id)
    )
    const currencies = new Set([...provider.map((p) => p.currency), ...file.map((f) => f.currency)])
    // Read net of fees when the engine matched it so, or when the session reads every record so.
    const net = result.netOfFees || items.net(k)
    const fixedBy = file.length === 1 && !file[0]?.notRead ? NONE : file.filter((f) => f.notRead?.fixed)
    const differenceMinor =
      currencies.size === 1 && items.outcome(k) !== 'not_read'
        ? file.reduce((s, f) => s + f.amountMinor, 0) - provider.reduce((s, p) => s + expectedAmount(p, net), 0)
        : null
    const annotation = folded.notes.get(key)
    out[k] = {
      key,
      outcome: items.outcome(k),
      provider,
      file,
      differenceMinor,
      netOfFees: net,
      score: items.score(k),
      // Most items share their reasons' array: a new one only for the few with more to say.
      reasons:
        outside === null && fixedBy.length === 0
          ? (items.reasons(k) as string[])
          : [
              ...items.reasons(k),
              ...(outside ?? []),
              ...fixedBy.map((f) => `line ${f.line} was read by hand: the file has "${f.notRead?.text}" (${f.notRead?.reason})`)
            ],
      decision: items.decision(k),
      note: annotation?.note ?? null,
      reasonCode: annotation?.reasonCode ?? null,
      resolved: annotation?.resolved ?? false,
      decidedBy: annotation?.by ?? null,
      decidedAt: annotation?.at ?? null
    }
  }
  return out
}

/** A stored item's record as the engine saw it, outside the period again when its day is. */
export function engineProvider(p: ProviderSide, session: SessionInfo): EngineProvider {
  return {
    id: p.id,
    reference: p.reference,
    serviceReference: p.serviceReference,
    day: p.date,
    amountMinor: p.amountMinor,
    feesMinor: p.feesMinor,
    currency: p.currency,
    status: p.status,
    channel: p.channel,
    text: p.name,
    outsidePeriod: outsideThePeriod(session.source, p.date, session)
  }
}

/** A stored item's statement line as the engine saw it. */
export function engineFileRow(f: FileSide): EngineFileRow {
  return {
    id: f.id,
    fileId: f.fileId,
    line: f.line,
    date: f.date,
    amountMinor: f.amountMinor,
    currency: f.currency,
    reference: f.reference,
    description: f.description,
    counterparty: f.counterparty,
    ...(f.notRead ? { notRead: f.notRead } : {})
  }
}
