// Lock dates: a closed period of an account locks its days, for a new session over them, a statement added to one, and a decision about anything dated in them, until it is reopened with a reason; in a team workspace the approval is the lock.
import { describe, expect, it } from 'vitest'
import { AppError } from '../../src/main/errors'
import type { ReconService } from '../../src/main/reconcile/service'
import { scenarioService } from '../support/recon-session'

const PROFILE = { name: 'Acme test', mode: 'test' }

/** A statement of account 0123456789 with one line per day given (reference and amount), balances tying. */
const statement = (lines: [string, string, string][]): string =>
  [
    'Account number,0123456789',
    'Currency,NGN',
    'Opening balance,0.00',
    'Date,Reference,Amount',
    ...lines.map((l) => l.join(',')),
    `Closing balance,${lines.reduce((s, l) => s + Number(l[2]), 0).toFixed(2)}`
  ].join('\n')

async function session(service: ReconService, name: string, from: string, to: string, csv: string) {
  const imported = await service.importStatement({ profileId: 'test', name, bytes: Buffer.from(csv), mapping: {} })
  // A statement imported before (a session refused over it) is the one stored then.
  const fileId = imported.status === 'imported' ? imported.file.id : imported.status === 'same-file' ? imported.existing.id : null
  if (fileId === null) throw new Error(`${name}: ${imported.status}`)
  const made = service.createSession({
    profileId: 'test',
    name,
    source: 'payments',
    from,
    to,
    timeZone: 'UTC',
    fileIds: [fileId]
  })
  await service.run(made.id)
  return made
}

const refusal = (fn: () => unknown): AppError => {
  try {
    fn()
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('not refused')
}

describe('lock dates', () => {
  it('refuses a session over a closed period of its account, and a decision about anything dated in it, until it is reopened', async () => {
    const service = scenarioService([
      { n: 1, amount: 100, day: '2026-10-10' },
      { n: 2, amount: 200, day: '2026-11-03' }
    ])
    const october = await session(service, 'october.csv', '2026-10-01', '2026-10-31', statement([['2026-10-10', 'PAY-0001', '100.00']]))
    // Open, October locks nothing: a session over some of its days is made (and named an overlap).
    const overlapping = await session(
      service,
      'late.csv',
      '2026-10-20',
      '2026-11-10',
      statement([
        ['2026-10-25', '', '-5.00'],
        ['2026-11-03', 'PAY-0002', '200.00']
      ])
    )
    await service.close(october.id, PROFILE)
    const csv = statement([['2026-10-30', '', '-1.00']])
    const imported = await service.importStatement({ profileId: 'test', name: 'again.csv', bytes: Buffer.from(csv), mapping: {} })
    if (imported.status !== 'imported') throw new Error(imported.status)
    const made = (): unknown =>
      service.createSession({
        profileId: 'test',
        name: 'again',
        source: 'payments',
        from: '2026-10-15',
        to: '2026-10-31',
        timeZone: 'UTC',
        fileIds: [imported.file.id]
      })
    // A team workspace's session replayed here is the workspace's to lock: a period closed on this computer does not refuse it.
    expect(
      service.createSession({
        profileId: 'test',
        name: 'replayed',
        source: 'payments',
        from: '2026-10-15',
        to: '2026-10-31',
        timeZone: 'UTC',
        fileIds: [imported.file.id],
        replay: true
      })
    ).toMatchObject({ name: 'replayed' })
    const refused = refusal(made)
    expect(refused.code).toBe('period_locked')
    expect(refused.message).toBe(
      '"again" cannot be made: The period shares days with "october.csv" (2026-10-01 to 2026-10-31) of account 0123456789, which is closed: the days of a closed period are locked. Reopen that period with a reason to change anything dated in it.'
    )
    // Nothing of it was kept.
    expect(
      service
        .sessions('test')
        .map((s) => s.name)
        .sort()
    ).toEqual(['late.csv', 'october.csv', 'replayed'])
    // In the session made before the lock, a line dated in October is not decided; one dated after it is.
    const items = [...service.allItems(overlapping.id)]
    const charge = items.find((i) => i.file[0]?.date === '2026-10-25')
    const later = items.find((i) => i.file[0]?.date === '2026-11-03')
    await expect(service.decide(overlapping.id, { kind: 'note', itemKey: charge?.key as string, note: 'bank charge' })).rejects.toThrow(
      /It is dated 2026-10-25, inside "october.csv" \(2026-10-01 to 2026-10-31\) of account 0123456789, which is closed/
    )
    await expect(service.decide(overlapping.id, { kind: 'note', itemKey: later?.key as string, note: 'seen' })).resolves.toMatchObject({
      inPlace: true
    })
    // Reopened with a reason, the days are open again.
    service.reopen(october.id, 'The bank corrected a line')
    expect(made()).toMatchObject({ name: 'again' })
    await expect(
      service.decide(overlapping.id, { kind: 'note', itemKey: charge?.key as string, note: 'bank charge' })
    ).resolves.toBeTruthy()
  })

  it('takes a team workspace approval as the lock, and its reopening as the unlock', async () => {
    const service = scenarioService([{ n: 1, amount: 100, day: '2026-10-10' }])
    const october = await session(service, 'october.csv', '2026-10-01', '2026-10-31', statement([['2026-10-10', 'PAY-0001', '100.00']]))
    const again = async (): Promise<unknown> =>
      session(service, 'again.csv', '2026-10-20', '2026-10-31', statement([['2026-10-21', '', '-1.00']]))
    // What the team domain keeps when it pulls the workspace's approval of the session this one replays.
    service.setApproved(october.id, '2026-11-02T09:00:00.000Z')
    await expect(again()).rejects.toMatchObject({ code: 'period_locked' })
    service.setApproved(october.id, null)
    await expect(again()).resolves.toMatchObject({ name: 'again.csv' })
  })
})
