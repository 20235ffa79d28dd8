// A stored item's sides as the engine reads them again: a decision re-runs the items it touches, and a next period carries open ones forward.
import type { FileSide, ProviderSide, SessionInfo } from '../../shared/reconcile'
import type { EngineFileRow, EngineProvider } from './match/types'
import { outsideThePeriod } from './provider-side'

/** A stored item's record as the engine saw it: outside the period again when its day is, unless it was carried forward into it. */
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
    outsidePeriod: p.carried === undefined && outsideThePeriod(session.source, p.date, session),
    ...(p.carried ? { carried: p.carried } : {})
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
    ...(f.notRead ? { notRead: f.notRead } : {}),
    ...(f.carried ? { carried: f.carried } : {})
  }
}
