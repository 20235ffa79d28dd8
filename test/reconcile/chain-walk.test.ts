// One walk over a hash chain for both trails: the cache's audit events and a team workspace's events, each in its own hash encoding, break at the same event for the same tampering.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chainProblems, eventHash as auditHash, GENESIS, type ChainLink } from '../../src/main/reconcile/audit'
import { eventHash as teamHash, verifyChain, type SessionEvent } from '../../src/main/team/server-sessions'
import { propertyRuns } from '../support/property'

const ZERO = '0'.repeat(64)

/** The same n events as an audit trail and as a team workspace's events, each hashed its own way. */
function chains(notes: readonly string[]): { audit: ChainLink[]; team: SessionEvent[] } {
  const audit: ChainLink[] = []
  const team: SessionEvent[] = []
  notes.forEach((note, i) => {
    const at = `2026-11-${String((i % 28) + 1).padStart(2, '0')}T09:00:00.000Z`
    const payload = { itemKey: `k${i}`, note }
    const prevAudit = audit[i - 1]?.hash ?? GENESIS
    const link = { seq: i + 1, at, user: 'ada', kind: 'note', payload, prevHash: prevAudit }
    audit.push({ ...link, hash: auditHash({ sessionId: 's', ...link }) })
    const prevTeam = team[i - 1]?.hash ?? ZERO
    const event = { seq: i + 1, kind: 'decision', itemKey: `k${i}`, basedOn: null, payload: JSON.stringify(payload), author: 'ada', at }
    team.push({ ...event, prevHash: prevTeam, hash: teamHash(prevTeam, event) })
  })
  return { audit, team }
}

type Tamper = { kind: 'none' } | { kind: 'delete' | 'edit' | 'relink'; at: number } | { kind: 'swap'; at: number; with: number }

function tampered<T extends { seq: number; prevHash: string }>(links: readonly T[], t: Tamper, edit: (link: T) => T): T[] {
  const out = [...links]
  if (t.kind === 'delete') out.splice(t.at, 1)
  if (t.kind === 'edit') out[t.at] = edit(out[t.at] as T)
  if (t.kind === 'relink') out[t.at] = { ...(out[t.at] as T), prevHash: 'f'.repeat(64) }
  if (t.kind === 'swap') [out[t.at], out[t.with]] = [out[t.with] as T, out[t.at] as T]
  return out
}

describe('one chain walker, two hash encodings', () => {
  it('finds the first tampered event at the same place in both trails, and none when nothing was changed', () => {
    const arbitrary = fc.array(fc.string({ maxLength: 12 }), { minLength: 2, maxLength: 12 }).chain((notes) =>
      fc.tuple(
        fc.constant(notes),
        fc.oneof(
          fc.constant<Tamper>({ kind: 'none' }),
          fc.record({ kind: fc.constantFrom('delete' as const, 'edit' as const, 'relink' as const), at: fc.nat(notes.length - 1) }),
          fc
            .tuple(fc.nat(notes.length - 1), fc.nat(notes.length - 1))
            .filter(([a, b]) => a < b)
            .map(([at, other]): Tamper => ({ kind: 'swap', at, with: other }))
        )
      )
    )
    fc.assert(
      fc.property(arbitrary, ([notes, tamper]) => {
        const { audit, team } = chains(notes)
        const auditAfter = tampered(audit, tamper, (l) => ({ ...l, payload: { ...(l.payload as object), note: `${notes.length}!` } }))
        const teamAfter = tampered(team, tamper, (e) => ({ ...e, author: 'mallory' }))
        const head = { hash: audit[audit.length - 1]?.hash as string, count: audit.length }
        const problems = chainProblems('s', auditAfter, head)
        const check = verifyChain(teamAfter)
        if (tamper.kind === 'none') {
          expect(problems).toEqual([])
          expect(check).toMatchObject({ ok: true, firstBad: null })
          return
        }
        expect(problems.length).toBeGreaterThan(0)
        // A deleted last event leaves every link whole: only a recorded head says so (the audit trail's here; the server's
        // session_head for a workspace, checked apart in verifySharedSession).
        if (tamper.kind === 'delete' && tamper.at === notes.length - 1) {
          expect(check.ok).toBe(true)
          expect(problems.map((p) => p.seq)).toEqual([null])
          return
        }
        expect(check.ok).toBe(false)
        expect(problems[0]?.seq).toBe(check.firstBad?.seq)
      }),
      propertyRuns(300)
    )
  })
})
