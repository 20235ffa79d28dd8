// What a sign-off step says besides who took it: a submission and an approval name the items they were of (how many, and the SHA-256 of the items as replayed), so an approval is bound to exactly what was submitted and every member can check that their computer replays the same.
import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { SignOffStep } from '../../shared/ipc/team'
import { AppError } from '../errors'
import { ReconService } from '../reconcile/service'
import { replicaEvents, type Replica } from './replicas'

/** The items a sign-off was of: how many, and the SHA-256 of each item's JSON on its own line, in their order. */
export interface ItemsDigest {
  count: number
  sha256: string
}

/** The items of a session as this computer has them, digested. */
export function itemsDigest(db: Database.Database, sessionId: string): ItemsDigest {
  const hash = createHash('sha256')
  let count = 0
  for (const item of new ReconService(db).allItems(sessionId)) {
    hash.update(`${JSON.stringify(item)}\n`)
    count++
  }
  return { count, sha256: hash.digest('hex') }
}

/** The items digest an event's payload carries, when it is one Ledgerline wrote. */
export function digestOf(payload: string): ItemsDigest | null {
  try {
    const items = (JSON.parse(payload) as { items?: Partial<ItemsDigest> }).items
    return items && Number.isSafeInteger(items.count) && typeof items.sha256 === 'string' && /^[0-9a-f]{64}$/.test(items.sha256)
      ? { count: items.count as number, sha256: items.sha256 }
      : null
  } catch {
    return null
  }
}

/**
 * The payload of a sign-off step taken from this computer: the reason given, and for a submission or an
 * approval the items as replayed here. An approval is refused here when these are not the items of the
 * submission in force: the reviewer would approve something other than what was submitted.
 */
export function signOffPayload(db: Database.Database, replica: Replica, step: SignOffStep, reason?: string): Record<string, unknown> {
  const payload: Record<string, unknown> = reason?.trim() ? { reason: reason.trim() } : {}
  if (step !== 'submit' && step !== 'approve') return payload
  const here = itemsDigest(db, replica.sessionId)
  if (step === 'approve') {
    const submitted = replicaEvents(db, replica).findLast((e) => e.kind === 'submit')
    const theirs = submitted ? digestOf(submitted.payload) : null
    if (submitted && theirs && theirs.sha256 !== here.sha256)
      throw new AppError(
        'team_items_differ',
        `This computer replays other items (${here.count}, SHA-256 ${here.sha256.slice(0, 12)}…) than ${submitted.author} submitted (${theirs.count}, ${theirs.sha256.slice(0, 12)}…) in event ${submitted.seq}: sync again; if they still differ, do not approve, and tell the workspace owner.`
      )
  }
  return { ...payload, items: here }
}
