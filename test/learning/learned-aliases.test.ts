// Learning from what the user confirms: a nickname matched by hand in October raises the right suggestion in November, says why in words, and a rejection lowers it again in December.
import { describe, expect, it } from 'vitest'
import type { ReconService } from '../../src/main/reconcile/service'
import type { ReconItem } from '../../src/shared/reconcile'
import { scenarioService, scenarioSession } from '../support/recon-session'

const TUNDE = { name: 'Babatunde Adeyemi', email: 'b.adeyemi@example.com' }
const CHIDI = { name: 'Chidi Okafor', email: 'chidi@example.com' }

/** A month's statement: one line from "TUNDE ADE" of NGN 15,000.00, a day after both customers paid that much. */
function statement(month: string, words: string): string {
  return [
    'Account number,0123456789',
    'Currency,NGN',
    'Opening balance,0.00',
    'Date,Reference,Description,Amount',
    `2026-${month}-06,,${words},15000.00`,
    'Closing balance,15000.00'
  ].join('\n')
}

function service(): ReconService {
  return scenarioService(
    ['10', '11', '12'].flatMap((month, k) => [
      { n: 2 * k + 1, amount: 15_000, day: `2026-${month}-05`, customer: TUNDE },
      { n: 2 * k + 2, amount: 15_000, day: `2026-${month}-05`, customer: CHIDI }
    ])
  )
}

const lineItem = (s: ReconService, id: string): ReconItem => [...s.allItems(id)].find((i) => i.file.length === 1) as ReconItem

describe('an alias learned from a match by hand', () => {
  it('raises the right suggestion the next month, in words, and a rejection lowers it again', async () => {
    const s = service()
    const october = await scenarioSession(s, statement('10', 'TRF FROM TUNDE ADE/OCT'), {
      name: 'oct.csv',
      from: '2026-10-01',
      to: '2026-10-31'
    })
    // Two customers paid the amount the day before: the amount and the day alone pick neither.
    const first = lineItem(s, october.id)
    expect(first.outcome).toBe('only_in_file')
    await s.decide(october.id, { kind: 'match', providerIds: ['id-1'], fileIds: [first.file[0]?.id as string] })

    const november = await scenarioSession(s, statement('11', 'TRF FROM TUNDE ADE/NOV 2026'), {
      name: 'nov.csv',
      from: '2026-11-01',
      to: '2026-11-30'
    })
    const offered = lineItem(s, november.id)
    expect(offered.outcome).toBe('suggested')
    expect(offered.provider.map((p) => p.id)).toEqual(['id-3'])
    expect(offered.reasons).toContain(
      'learned: you confirmed "TUNDE ADE" as the provider\'s Babatunde Adeyemi (b.adeyemi@example.com) once since October 2026 +1'
    )
    // Rejected after all: December's line is not offered Tunde's payment on the amount and the day alone.
    await s.decide(november.id, { kind: 'reject', itemKey: offered.key })
    const december = await scenarioSession(s, statement('12', 'TRF FROM TUNDE ADE/DEC 2026'), {
      name: 'dec.csv',
      from: '2026-12-01',
      to: '2026-12-31'
    })
    const after = lineItem(s, december.id)
    expect(after.outcome).toBe('only_in_file')
  })

  it('learns nothing from a match taken back with undo', async () => {
    const s = service()
    const october = await scenarioSession(s, statement('10', 'TRF FROM TUNDE ADE'), {
      name: 'oct.csv',
      from: '2026-10-01',
      to: '2026-10-31'
    })
    await s.decide(october.id, { kind: 'match', providerIds: ['id-1'], fileIds: [lineItem(s, october.id).file[0]?.id as string] })
    await s.decide(october.id, { kind: 'undo' })
    const november = await scenarioSession(s, statement('11', 'TRF FROM TUNDE ADE'), {
      name: 'nov.csv',
      from: '2026-11-01',
      to: '2026-11-30'
    })
    expect(lineItem(s, november.id).outcome).toBe('only_in_file')
  })
})
