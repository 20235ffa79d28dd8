// A rule proposed from what the accountant confirmed, from the CLI: a nickname matched by hand three months running passes the gate, is proposed with its figures, saved (not enabled), enabled, and pairs December's line as a rule, its version in the trail; nothing is proposed before the gate, and nothing is applied before it is enabled.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ProposedRule } from '../../src/shared/learning'
import type { ReconItem } from '../../src/shared/reconcile'
import type { ReconService } from '../../src/main/reconcile/service'
import { runCli } from '../support/cli'
import { scenarioService, scenarioSession } from '../support/recon-session'

const TUNDE = { name: 'Babatunde Adeyemi', email: 'b.adeyemi@example.com' }
const CHIDI = { name: 'Chidi Okafor', email: 'chidi@example.com' }
const MONTHS = ['09', '10', '11', '12']

function statement(month: string): string {
  return [
    'Account number,0123456789',
    'Currency,NGN',
    'Opening balance,0.00',
    'Date,Reference,Description,Amount',
    `2026-${month}-06,,TRF FROM TUNDE ADE/${month},15000.00`,
    'Closing balance,15000.00'
  ].join('\n')
}

const lineItem = (s: ReconService, id: string): ReconItem => [...s.allItems(id)].find((i) => i.file.length === 1) as ReconItem

async function month(s: ReconService, m: string): Promise<string> {
  const last = m === '09' || m === '11' ? '30' : '31'
  return (await scenarioSession(s, statement(m), { name: `${m}.csv`, from: `2026-${m}-01`, to: `2026-${m}-${last}` })).id
}

describe('ledgerline rules proposed', () => {
  it('proposes a rule once a nickname passed the gate, with its figures; applies it only once enabled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-proposed-'))
    const cache = join(dir, 'cache.sqlite')
    const s = scenarioService(
      MONTHS.flatMap((m, k) => [
        { n: 2 * k + 1, amount: 15_000, day: `2026-${m}-05`, customer: TUNDE },
        { n: 2 * k + 2, amount: 15_000, day: `2026-${m}-05`, customer: CHIDI }
      ]),
      cache
    )
    const proposed = async (): Promise<ProposedRule[]> => {
      const run = await runCli(['rules', 'proposed', '--db', cache, '--json'])
      expect(run.code, run.stderr).toBe(0)
      return JSON.parse(run.stdout) as ProposedRule[]
    }
    // September and October, matched by hand: two confirmations are not enough.
    for (const [k, m] of ['09', '10'].entries()) {
      const id = await month(s, m)
      await s.decide(id, { kind: 'match', providerIds: [`id-${2 * k + 1}`], fileIds: [lineItem(s, id).file[0]?.id as string] })
    }
    expect(await proposed()).toEqual([])
    const words = await runCli(['rules', 'proposed', '--db', cache])
    expect(words.stdout).toContain('Nothing to propose')
    // November's line is suggested from what was learned; accepted, it is the third confirmation.
    const november = await month(s, '11')
    const offered = lineItem(s, november)
    expect(offered.outcome).toBe('suggested')
    await s.decide(november, { kind: 'accept', itemKey: offered.key })
    const [proposal, ...others] = await proposed()
    expect(others).toEqual([])
    expect(proposal?.rule.name).toBe('alias-tunde-ade')
    expect(proposal?.rule.action).toEqual({ type: 'pair', with: 'customer', value: 'b.adeyemi@example.com' })
    expect(proposal?.gate).toContain('confirmed 3 of the 3 time(s) decided (100%), rejected 0 time(s)')
    const listed = await runCli(['rules', 'proposed', '--db', cache])
    expect(listed.stdout).toContain(
      'you confirmed "TUNDE ADE" as the provider\'s Babatunde Adeyemi (b.adeyemi@example.com) 3 times since September 2026'
    )

    // Saved, not enabled: December's line is still only suggested.
    const added = await runCli(['rules', 'add', '--db', cache, '--proposed', 'alias-tunde-ade'])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain('not enabled')
    const december = await month(s, '12')
    expect(lineItem(s, december).outcome).toBe('suggested')
    // Enabled: the next run pairs it by the rule, named with its version.
    expect((await runCli(['rules', 'enable', '--db', cache, 'alias-tunde-ade'])).code).toBe(0)
    const again = await runCli(['run', '--db', cache, '--session', december])
    expect(again.code, again.stderr).toBe(0)
    const ruled = lineItem(s, december)
    expect(ruled.provider.map((p) => p.id)).toEqual(['id-7'])
    expect(ruled.decision).toBe('manual')
    expect(ruled.decidedBy).toBe('rule "alias-tunde-ade" (version 1)')
    expect(await proposed()).toEqual([expect.objectContaining({ saved: true })])
  })

  it('names the proposals when one asked for is not among them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-proposed-'))
    const cache = join(dir, 'cache.sqlite')
    scenarioService([{ n: 1, amount: 100, day: '2026-10-05' }], cache)
    const run = await runCli(['rules', 'add', '--db', cache, '--proposed', 'alias-nobody'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('no rule named alias-nobody is proposed')
  })
})
