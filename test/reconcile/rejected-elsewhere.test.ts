// Hard negatives across sessions: a pair the user rejected in one session of the profile is never suggested in another, until the user confirms that same pair later; a replayed team session reads none of it.
import { describe, expect, it } from 'vitest'
import type { ReconService } from '../../src/main/reconcile/service'
import { scenarioService } from '../support/recon-session'

const CSV = [
  'Account number,0123456789',
  'Currency,NGN',
  'Opening balance,0.00',
  'Date,Reference,Description,Amount',
  '2026-10-11,,TRANSFER FROM A CUSTOMER,250.00',
  'Closing balance,250.00'
].join('\n')

async function sessionOver(service: ReconService, fileId: string, name: string) {
  const made = service.createSession({
    profileId: 'test',
    name,
    source: 'payments',
    from: '2026-10-01',
    to: '2026-10-31',
    timeZone: 'UTC',
    fileIds: [fileId]
  })
  await service.run(made.id)
  return made.id
}

const suggestedPair = (service: ReconService, sessionId: string) =>
  [...service.allItems(sessionId)].find((i) => i.outcome === 'suggested' && i.provider.some((p) => p.id === 'id-2'))

describe('a pair rejected in another session', () => {
  it('is never suggested again, until the user confirms that same pair', async () => {
    const service = scenarioService([
      { n: 1, amount: 100, day: '2026-10-10' },
      { n: 2, amount: 250, day: '2026-10-10' }
    ])
    const imported = await service.importStatement({ profileId: 'test', name: 'october.csv', bytes: Buffer.from(CSV), mapping: {} })
    if (imported.status !== 'imported') throw new Error(imported.status)
    const fileId = imported.file.id
    const first = await sessionOver(service, fileId, 'October')
    const offered = suggestedPair(service, first)
    expect(offered, 'the engine suggests the line with the payment of its amount').toBeDefined()
    await service.decide(first, { kind: 'reject', itemKey: offered?.key as string })
    expect(suggestedPair(service, first)).toBeUndefined()

    // Another session over the same statement: the rejected pair is not offered.
    const second = await sessionOver(service, fileId, 'October again')
    expect(suggestedPair(service, second)).toBeUndefined()
    const line = [...service.allItems(second)].find((i) => i.file.length === 1 && i.provider.length === 0)
    expect(line?.file[0]?.description).toBe('TRANSFER FROM A CUSTOMER')

    // Confirmed there by hand after all: a third session offers it again.
    await service.decide(second, { kind: 'match', providerIds: ['id-2'], fileIds: [line?.file[0]?.id as string] })
    const third = await sessionOver(service, fileId, 'October a third time')
    expect(suggestedPair(service, third)).toBeDefined()
    // Taken back with undo, the confirmation no longer stands: a fourth session does not offer it.
    await service.decide(second, { kind: 'undo' })
    const fourth = await sessionOver(service, fileId, 'October a fourth time')
    expect(suggestedPair(service, fourth)).toBeUndefined()
  })
})
