// The evidence pack: written on close, checked offline; one changed byte of a statement or one changed event fails the check with the file or event named, and an older pack still checks after the session is reopened and closed again.
import JSZip from 'jszip'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { verifyEvidencePack } from '../../src/main/reconcile/evidence'
import type { ReconService } from '../../src/main/reconcile/service'
import { scenarioService, scenarioSession } from '../support/recon-session'

let service: ReconService
let dir: string
const PROFILE = { name: 'Acme test', mode: 'test' }
const STATEMENT = [
  'Date,Reference,Description,Debit,Credit,Balance',
  'Opening balance,,,,,"1,000.00"',
  '29/10/2026,PAY-0001,Card,,"1,000.00","2,000.00"',
  '30/10/2026,,SMS ALERT CHARGES,52.50,,"1,947.50"',
  'Closing balance,,,,,"1,947.50"'
].join('\n')

beforeEach(() => {
  service = scenarioService([{ n: 1, amount: 1000, day: '2026-10-29' }])
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-evidence-test-'))
})

async function closedSession(): Promise<string> {
  const s = await scenarioSession(service, STATEMENT, { name: 'oct.csv', from: '2026-10-29', to: '2026-10-30' })
  const charge = service.items(s.id).items.find((i) => i.outcome === 'only_in_file')?.key as string
  await service.decide(s.id, { kind: 'note', itemKey: charge, note: 'SMS charges, booked to bank fees' })
  service.close(s.id)
  return s.id
}

/** The pack with one file changed by `change`. */
async function tampered(pack: string, path: string, change: (text: Buffer) => Buffer): Promise<Buffer> {
  const zip = await JSZip.loadAsync(readFileSync(pack))
  zip.file(path, change(await (zip.file(path) as JSZip.JSZipObject).async('nodebuffer')))
  return zip.generateAsync({ type: 'nodebuffer' })
}

describe('the evidence pack', () => {
  it('holds the reports, the statement exactly as imported, the audit trail, the settings and a README, and checks intact', async () => {
    const id = await closedSession()
    const pack = join(dir, 'pack.zip')
    const written = await service.evidencePack(id, pack, PROFILE)
    const zip = await JSZip.loadAsync(readFileSync(pack))
    expect(
      Object.keys(zip.files)
        .filter((f) => !zip.files[f]?.dir)
        .sort()
    ).toEqual([
      'README.txt',
      'audit-trail.json',
      'manifest.json',
      'report.csv',
      'report.xlsx',
      'settings.json',
      'statements/01-oct.csv',
      'summary.csv'
    ])
    expect(await zip.file('statements/01-oct.csv')?.async('string')).toBe(STATEMENT)
    expect(await zip.file('summary.csv')?.async('string')).toMatch(/"bank_reconciliation","Difference left","NGN",,,,,0\.00,"nothing left"/)
    expect(await zip.file('README.txt')?.async('string')).toContain(written.chainHead)
    const report = await verifyEvidencePack(readFileSync(pack))
    expect(report).toMatchObject({ ok: true, problems: [], chainHead: written.chainHead, events: service.events(id).length })
  })

  it('fails the check naming the statement when one byte of it changed, and the event when one event changed', async () => {
    const id = await closedSession()
    const pack = join(dir, 'pack.zip')
    await service.evidencePack(id, pack, PROFILE)
    const oneByte = await tampered(pack, 'statements/01-oct.csv', (b) => {
      const copy = Buffer.from(b)
      copy[copy.indexOf('1,000.00')] = '7'.charCodeAt(0)
      return copy
    })
    const statement = await verifyEvidencePack(oneByte)
    expect(statement.ok).toBe(false)
    expect(statement.problems.map((p) => p.what)).toEqual(['statements/01-oct.csv', 'statements/01-oct.csv'])
    expect(statement.problems[0]?.message).toMatch(/^it was changed: its SHA-256 is [0-9a-f]{64}, the manifest lists/)
    expect(statement.problems[1]?.message).toMatch(/^it is not the file that was imported/)

    const oneEvent = await tampered(pack, 'audit-trail.json', (b) =>
      Buffer.from(b.toString('utf8').replace('SMS charges, booked to bank fees', 'SMS charges, written off'))
    )
    const event = await verifyEvidencePack(oneEvent)
    expect(event.ok).toBe(false)
    expect(event.problems.map((p) => p.what)).toEqual(['audit-trail.json', expect.stringMatching(/^event \d+ \(note\)$/)])
    expect(event.problems[1]?.message).toMatch(/its content was changed after it was written \(note at .* by ada\)/)
    // Not a pack at all.
    writeFileSync(join(dir, 'not.zip'), 'hello')
    await expect(verifyEvidencePack(readFileSync(join(dir, 'not.zip')))).rejects.toThrow(/not a readable zip/)
  })

  it('is written only for a closed session; reopened and closed again, a new pack is written and the old one still checks', async () => {
    const id = await closedSession()
    const first = join(dir, 'first.zip')
    const one = await service.evidencePack(id, first, PROFILE)
    service.reopen(id, 'Bank corrected a line')
    expect(() => service.evidencePack(id, join(dir, 'open.zip'), PROFILE)).toThrow(/Close the session "October" first/)
    service.close(id)
    const second = join(dir, 'second.zip')
    const two = await service.evidencePack(id, second, PROFILE)
    expect(two.chainHead).not.toBe(one.chainHead)
    expect((await verifyEvidencePack(readFileSync(first))).ok).toBe(true)
    expect(await verifyEvidencePack(readFileSync(second))).toMatchObject({ ok: true, events: service.events(id).length })
  })
})
