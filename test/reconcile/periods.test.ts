// Accounts and periods, as a property: for any sessions of a few accounts over random months, each one's previous period is the latest closed one of its account that ends before it starts, its opening ties exactly when the figures are equal, and every break, gap and overlap is said, never one that is not there.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { accountOf, periodChains, type PeriodFile, type PeriodSession } from '../../src/main/reconcile/periods'
import { accountKey } from '../../src/shared/periods'
import { propertyRuns } from '../support/property'

/** A statement file of an account in NGN stating these balances (minor units; null: not stated). */
function file(id: string, account: string | null, opening: number | null, closing: number | null): PeriodFile {
  return { id, name: `${id}.csv`, account, currency: 'NGN', openingMinor: opening, closingMinor: closing }
}

const month = (n: number): { from: string; to: string } => {
  const start = new Date(Date.UTC(2026, n, 1))
  const end = new Date(Date.UTC(2026, n + 1, 0))
  return { from: start.toISOString().slice(0, 10), to: end.toISOString().slice(0, 10) }
}

const sessionArb = fc.record({
  account: fc.constantFrom('0123456789', '0123-456-789', '9876543210', null),
  named: fc.constantFrom(null, 'GTB current'),
  month: fc.integer({ min: 0, max: 6 }),
  lateStart: fc.boolean(),
  closed: fc.boolean(),
  opening: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
  closing: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null })
})

describe('periods of an account', () => {
  it('chains each session to the latest closed period of its account before it, and says every break, gap and overlap', () => {
    fc.assert(
      fc.property(fc.array(sessionArb, { minLength: 1, maxLength: 8 }), (specs) => {
        const sessions: PeriodSession[] = specs.map((s, i) => {
          const { from, to } = month(s.month)
          return {
            id: `s${i}`,
            name: `Session ${i}`,
            from: s.lateStart ? from.replace(/-01$/, '-03') : from,
            to,
            closed: s.closed,
            named: s.named,
            files: [file(`f${i}`, s.account, s.opening, s.closing)]
          }
        })
        const chains = periodChains(sessions, (files) => (files[0] ? { first: files[0], last: files[0] } : null))
        for (const s of sessions) {
          const account = accountOf(s)
          const chain = chains.get(s.id) ?? null
          // A statement's account wins over a name; no account at all: the session stands alone.
          const stated = s.files[0]?.account ?? null
          expect(account.name).toBe(stated ?? s.named)
          if (account.name === null) {
            expect(chain).toBeNull()
            continue
          }
          expect(chain).not.toBeNull()
          if (chain === null) continue
          const same = sessions.filter(
            (o) =>
              o.id !== s.id && accountOf(o).name !== null && accountKey(accountOf(o).name as string) === accountKey(account.name as string)
          )
          const closedBefore = same
            .filter((o) => o.closed && o.to < s.from)
            .sort((a, b) => (a.to > b.to ? -1 : a.to < b.to ? 1 : a.id < b.id ? -1 : 1))
          expect(chain.previous?.id ?? null).toBe(closedBefore[0]?.id ?? null)
          const previousClosing = closedBefore[0]?.files[0]?.closingMinor ?? null
          const opening = s.files[0]?.openingMinor ?? null
          const checked = closedBefore[0] !== undefined && previousClosing !== null && opening !== null
          expect(chain.ties).toBe(checked ? previousClosing === opening : null)
          expect(chain.said.some((x) => x.includes('does not tie'))).toBe(chain.ties === false)
          // A gap is named exactly when days lie between this period and the account's latest one before it.
          // Days no period of the account holds: after every period that starts before this one.
          const held = same
            .filter((o) => o.from < s.from)
            .map((o) => o.to)
            .sort()
          const lastHeld = held[held.length - 1]
          const gapExpected = lastHeld !== undefined && Date.parse(s.from) - Date.parse(lastHeld) > 86_400_000
          expect(chain.gap !== null).toBe(gapExpected)
          expect(chain.said.some((x) => x.startsWith('No period of account'))).toBe(gapExpected)
          const overlapping = same.filter((o) => o.from <= s.to && o.to >= s.from)
          expect(chain.overlaps.map((o) => o.id).sort()).toEqual(overlapping.map((o) => o.id).sort())
          expect(chain.said.filter((x) => x.startsWith('This period shares ') || x.includes('reconciles the same days')).length).toBe(
            overlapping.length
          )
        }
      }),
      propertyRuns(300)
    )
  })

  it('says a break with both figures and how far apart, in the account currency', () => {
    const oct = {
      id: 'oct',
      name: 'October',
      from: '2026-10-01',
      to: '2026-10-31',
      closed: true,
      named: null,
      files: [file('oct', '0123456789', 100_000, 120_000)]
    }
    const nov = {
      id: 'nov',
      name: 'November',
      from: '2026-11-01',
      to: '2026-11-30',
      closed: false,
      named: null,
      files: [file('nov', '0123456789', 119_950, 130_000)]
    }
    const chain = periodChains([oct, nov], (files) => (files[0] ? { first: files[0], last: files[0] } : null)).get('nov')
    expect(chain).toMatchObject({
      previous: { id: 'oct' },
      previousClosing: '1200.00',
      opening: '1199.50',
      ties: false,
      gap: null,
      overlaps: []
    })
    expect(chain?.said).toEqual([
      'The opening balance NGN 1,199.50 (nov.csv) does not tie to the closing balance NGN 1,200.00 of "October" (2026-10-01 to 2026-10-31) (oct.csv): NGN 0.50 apart.'
    ])
  })
})
