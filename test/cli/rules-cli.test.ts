// Rules from the CLI, as an accountant makes them: the bank's SMS charge decided by hand in October, a rule for it added (not enabled), tried on November's session and October's closed one (as decided there, not yet decided here), enabled, changed into its next version; a rule file with mistakes refused with each mistake by its place in the file.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { ReconService } from '../../src/main/reconcile/service'
import { runCli } from '../support/cli'
import { readExcelCsv } from '../support/excel-csv'
import { cacheWithPayments, monthStatement } from '../support/month-statements'
import { HANG_LIMIT_MS } from '../support/wait'

let dir: string
let cache: string
let november: string

const SMS_RULE = {
  name: 'sms-alert-charges',
  description: "The bank's SMS alert charges are bank charges",
  match: 'all',
  conditions: [
    { field: 'description', operator: 'contains', value: 'SMS CHARGE' },
    { field: 'amount', operator: 'sign', value: 'debit' }
  ],
  action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
}

async function reconcile(statement: string, from: string, to: string, out: string): Promise<string> {
  const run = await runCli(['reconcile', '--db', cache, '--against', statement, '--from', from, '--to', to, '--out', join(dir, out)])
  expect([0, 1], run.stderr).toContain(run.code)
  return /\(session ([0-9a-f-]+)\)/.exec(run.stdout)?.[1] as string
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-rules-'))
  cache = join(dir, 'cache.sqlite')
  cacheWithPayments(cache, [
    ['id-a', 'INV-A', 1250, 'successful', '2026-10-13T10:00:00Z', 18.75],
    ['id-n', 'INV-N', 10, 'successful', '2026-11-03T10:00:00Z']
  ])
  const october = await reconcile(
    monthStatement(
      dir,
      'october.csv',
      '1000.00',
      [
        ['2026-10-13', 'INV-A', '1250.00'],
        ['2026-10-28', '', '-52.50']
      ],
      '2197.50'
    ),
    '2026-10-01',
    '2026-10-31',
    'october-items.csv'
  )
  // October's SMS charge, decided by hand: a bank charge, resolved.
  const charge = readExcelCsv(join(dir, 'october-items.csv')).find((r) => r.outcome === 'only_in_file')
  const decided = await runCli([
    'decide',
    '--db',
    cache,
    '--session',
    october,
    '--item',
    charge?.item_key as string,
    'resolve',
    '--reason',
    'bank_charge'
  ])
  expect(decided.code, decided.stderr).toBe(0)
  const closed = await runCli(['close', '--db', cache, '--session', october])
  expect(closed.code, closed.stderr).toBe(0)
  november = await reconcile(
    monthStatement(
      dir,
      'november.csv',
      '2197.50',
      [
        ['2026-11-03', 'INV-N', '10.00'],
        ['2026-11-27', '', '-52.50']
      ],
      '2155.00'
    ),
    '2026-11-01',
    '2026-11-30',
    'november-items.csv'
  )
}, HANG_LIMIT_MS)

describe('rules from the CLI', { timeout: HANG_LIMIT_MS }, () => {
  it('adds a rule not enabled, tries it on this month and the last closed one, enables it, and keeps each change as a version', async () => {
    const file = join(dir, 'sms.json')
    writeFileSync(file, JSON.stringify(SMS_RULE))
    const empty = await runCli(['rules', 'list', '--db', cache])
    expect(empty.code, empty.stderr).toBe(0)
    expect(empty.stdout).toContain('has no rules yet')

    const added = await runCli(['rules', 'add', '--db', cache, '--file', file])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain('Added: sms-alert-charges (version 1, not enabled')
    expect(added.stdout).toContain(
      `When the line's description contains "SMS CHARGE" and the line's amount is a debit: classify the line as a bank charge (reason code bank_charge).`
    )

    // Tried before it is enabled: October's charge as decided by hand, November's not decided yet.
    const preview = await runCli(['rules', 'preview', '--db', cache, '--session', november, '--file', file, '--json'])
    expect(preview.code, preview.stderr).toBe(0)
    const tried = JSON.parse(preview.stdout) as {
      items: number
      asDecided: number
      otherwise: number
      undecided: number
      sessions: { closed: boolean; undecided: number; asDecided: number }[]
    }
    expect(tried).toMatchObject({ items: 2, asDecided: 1, otherwise: 0, undecided: 1 })
    expect(tried.sessions.map((s) => [s.closed, s.asDecided, s.undecided])).toEqual([
      [false, 0, 1],
      [true, 1, 0]
    ])
    const words = await runCli(['rules', 'preview', '--db', cache, '--session', november, 'sms-alert-charges'])
    expect(words.stdout).toContain('"sms-alert-charges" would act on 2 items: 1 as you decided them, 0 otherwise, 1 not decided yet.')
    expect(words.stdout).toMatch(/undecided\s+2026-11-27 -NGN 52\.50 sms charge: open; the rule would resolve it as bank_charge/)

    const enabled = await runCli(['rules', 'enable', '--db', cache, 'sms-alert-charges'])
    expect(enabled.code, enabled.stderr).toBe(0)
    expect(enabled.stdout).toContain('sms-alert-charges (version 1) is enabled.')
    // November matched again: the rule decides its charge, and says so.
    const rerun = await runCli(['run', '--db', cache, '--session', november])
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rerun.stdout).toContain('Decided by the enabled rules: 1 by rule "sms-alert-charges" (version 1).')
    const twice = await runCli(['run', '--db', cache, '--session', november])
    expect(twice.stdout).toContain('No rule decided anything new.')

    // A change is the rule's next version; it stays enabled and in its place; the same file again changes nothing.
    writeFileSync(file, JSON.stringify({ ...SMS_RULE, conditions: [SMS_RULE.conditions[0]] }))
    const changed = await runCli(['rules', 'add', '--db', cache, '--file', file])
    expect(changed.stdout).toContain('Saved as a new version: sms-alert-charges (version 2, enabled)')
    const again = await runCli(['rules', 'add', '--db', cache, '--file', file])
    expect(again.stdout).toContain('Unchanged: sms-alert-charges (version 2, enabled)')
    const list = await runCli(['rules', 'list', '--db', cache, '--json'])
    expect(JSON.parse(list.stdout)).toMatchObject([{ position: 1, version: 2, enabled: true, rule: { name: 'sms-alert-charges' } }])
    // A second rule goes last; moved first, the order is 1, 2 again and neither version changes.
    writeFileSync(
      file,
      JSON.stringify({ ...SMS_RULE, name: 'stamp-duty', conditions: [{ field: 'description', operator: 'contains', value: 'STAMP DUTY' }] })
    )
    expect((await runCli(['rules', 'add', '--db', cache, '--file', file])).code).toBe(0)
    const moved = await runCli(['rules', 'move', '--db', cache, 'stamp-duty', '--to', '1', '--json'])
    expect(moved.code, moved.stderr).toBe(0)
    expect(
      (JSON.parse(moved.stdout) as { position: number; version: number; rule: { name: string } }[]).map((r) => [
        r.position,
        r.rule.name,
        r.version
      ])
    ).toEqual([
      [1, 'stamp-duty', 1],
      [2, 'sms-alert-charges', 2]
    ])
    expect((await runCli(['rules', 'move', '--db', cache, 'stamp-duty', '--to', '9'])).stdout).toMatch(
      /1\. sms-alert-charges[\s\S]*2\. stamp-duty/
    )
    // Removed, then made again: it goes on from its last version.
    const removed = await runCli(['rules', 'remove', '--db', cache, 'stamp-duty'])
    expect(removed.stdout).toContain('Removed stamp-duty: it decides nothing from the next run on')
    const remade = await runCli(['rules', 'add', '--db', cache, '--file', file])
    expect(remade.stdout).toContain('Added: stamp-duty (version 2, not enabled')
    expect((await runCli(['rules', 'remove', '--db', cache, 'stamp-duty'])).code).toBe(0)
  })

  it("applies the enabled rule in the next month's run, as an audit event naming its version, and never again once taken back", async () => {
    const december = await reconcile(
      monthStatement(dir, 'december.csv', '2155.00', [['2026-12-30', '', '-52.50']], '2102.50'),
      '2026-12-01',
      '2026-12-31',
      'december-items.csv'
    )
    const charge = readExcelCsv(join(dir, 'december-items.csv')).find((r) => r.outcome === 'only_in_file')
    expect(charge).toMatchObject({ resolved: 'yes', reason_code: 'bank_charge', decided_by: 'rule "sms-alert-charges" (version 2)' })
    expect(charge?.reasons).toContain('decided by rule "sms-alert-charges" (version 2), an enabled rule')
    const db = new Database(cache, { readonly: true })
    const events = new ReconService(db).events(december)
    db.close()
    const applied = events.filter((e) => e.kind === 'rule')
    expect(applied).toHaveLength(1)
    expect(applied[0]?.payload).toMatchObject({ name: 'sms-alert-charges', version: 2, action: 'classify', reasonCode: 'bank_charge' })
    // Taken back with undo: the line is open again, and the rule does not decide it again.
    const undo = await runCli(['undo', '--db', cache, '--session', december])
    expect(undo.code, undo.stderr).toBe(0)
    const again = await runCli(['report', '--db', cache, '--session', december, '--out', join(dir, 'december-again.csv')])
    expect(again.code, again.stderr).not.toBe(2)
    expect(readExcelCsv(join(dir, 'december-again.csv')).find((r) => r.outcome === 'only_in_file')).toMatchObject({
      resolved: 'no',
      decided_by: ''
    })
  })

  it('refuses a rule file with mistakes, naming each by its place in the file, and a rule that is not there', async () => {
    const file = join(dir, 'bad.json')
    writeFileSync(
      file,
      JSON.stringify({
        name: 'Bad Name',
        match: 'all',
        conditions: [
          { field: 'description', operator: 'matches', value: '(' },
          { field: 'amount', operator: 'between', value: ['100', '10'] }
        ],
        action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
      })
    )
    const refused = await runCli(['rules', 'add', '--db', cache, '--file', file])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('name: a name of lower-case letters')
    writeFileSync(file, JSON.stringify({ ...SMS_RULE, conditions: [{ field: 'description', operator: 'matches', value: '(' }] }))
    const pattern = await runCli(['rules', 'add', '--db', cache, '--file', file])
    expect(pattern.code).toBe(2)
    expect(pattern.stderr).toMatch(/conditions\[0\]\.value: not a regular expression .*\[invalid_rule\]/)
    const missing = await runCli(['rules', 'enable', '--db', cache, 'no-such-rule'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('There is no rule "no-such-rule"; the rules are sms-alert-charges. [rule_not_found]')
    writeFileSync(file, '{ not json')
    const notJson = await runCli(['rules', 'add', '--db', cache, '--file', file])
    expect(notJson.code).toBe(2)
    expect(notJson.stderr).toContain('is not JSON (line 1, column 3)')
    // The mistakes people make, each said in words at its place.
    writeFileSync(
      file,
      JSON.stringify({
        name: 'typos',
        match: 'all',
        conditions: [
          { feild: 'description', operator: 'contains', value: 'SMS' },
          { field: 'description', operator: 'like', value: 'SMS' },
          { field: 'amount', operator: 'equals', value: '52.50,00' }
        ]
      })
    )
    const typos = await runCli(['rules', 'add', '--db', cache, '--file', file])
    expect(typos.code).toBe(2)
    for (const said of [
      'conditions[0]: no key "feild"',
      'conditions[1].operator: "like" does not apply to description; it takes contains, equals, starts_with, ends_with, matches',
      'conditions[2].value: an amount as text in major units with no thousands separator, a debit (money out) negative',
      'action: missing: what the rule does'
    ])
      expect(typos.stderr).toContain(said)
  })
})
