// The evidence pack: its files bound to the sign-off by the close event inside the audit chain; written on close, checked offline; any change (a byte, an edited, deleted, reordered or added event, a file added, dropped or rewritten with its manifest, two entries of one name, a damaged or oversized zip) fails the check naming what; an older pack still checks after the session is reopened and closed again.
import JSZip from 'jszip'
import { zipSync } from 'fflate'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { verifyEvidencePack, writeEvidencePack } from '../../src/main/reconcile/evidence'
import type { ReportInput } from '../../src/main/reconcile/totals'
import { zipEntries, type ZipEntry } from '../../src/main/files/zip'
import type { ReconService } from '../../src/main/reconcile/service'
import { scenarioService, scenarioSession } from '../support/recon-session'
import { PROPERTY_SEED } from '../support/property'

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
  await service.close(s.id, PROFILE)
  return s.id
}

async function writtenPack(): Promise<{ pack: string; id: string; head: string }> {
  const id = await closedSession()
  const pack = join(dir, 'pack.zip')
  const written = await service.evidencePack(id, pack, PROFILE)
  return { pack, id, head: written.chainHead }
}

/** The pack with its files changed by `change` (a file dropped when it returns null; others added when it returns more). */
async function rewritten(pack: string, change: (files: Map<string, Buffer>) => void | Promise<void>): Promise<Buffer> {
  const zip = await JSZip.loadAsync(readFileSync(pack))
  const files = new Map<string, Buffer>()
  for (const [path, entry] of Object.entries(zip.files)) if (!entry.dir) files.set(path, await entry.async('nodebuffer'))
  await change(files)
  const out = new JSZip()
  for (const [path, bytes] of files) out.file(path, bytes)
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}

const sha256 = async (bytes: Buffer): Promise<string> => (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex')

/** The manifest rewritten to list each file as it now is: what someone covering a change would do. */
async function coverInManifest(files: Map<string, Buffer>): Promise<void> {
  const manifest = JSON.parse((files.get('manifest.json') as Buffer).toString('utf8')) as {
    files: { path: string; sha256: string; bytes: number }[]
  }
  manifest.files = await Promise.all(
    [...files.entries()]
      .filter(([p]) => p !== 'manifest.json')
      .map(async ([path, bytes]) => ({ path, sha256: await sha256(bytes), bytes: bytes.length }))
  )
  files.set('manifest.json', Buffer.from(JSON.stringify(manifest)))
}

/** The bytes with one of them changed, at a place the run's seed and the file's name choose (printed on failure with the seed). */
function flipOne(bytes: Buffer, name: string): Buffer {
  const copy = Buffer.from(bytes)
  const at = Number(
    (BigInt(PROPERTY_SEED) * 2_654_435_761n + BigInt([...name].reduce((h, c) => h * 31 + c.charCodeAt(0), 7))) % BigInt(copy.length)
  )
  copy[at] = (copy[at] as number) ^ 0x01
  return copy
}

/** The audit trail with its events changed by `change`. */
const trailEdit =
  (change: (events: { seq: number; kind: string; payload: unknown }[]) => void) =>
  (files: Map<string, Buffer>): void => {
    const trail = JSON.parse((files.get('audit-trail.json') as Buffer).toString('utf8')) as {
      events: { seq: number; kind: string; payload: unknown }[]
    }
    change(trail.events)
    files.set('audit-trail.json', Buffer.from(JSON.stringify(trail, null, 2)))
  }

describe('the evidence pack', () => {
  it('holds the reports, the statement exactly as imported, the audit trail, the settings and a README, and checks intact', async () => {
    const { pack, id, head } = await writtenPack()
    const zip = await JSZip.loadAsync(readFileSync(pack))
    expect(
      Object.keys(zip.files)
        .filter((f) => !zip.files[f]?.dir)
        .sort()
    ).toEqual([
      'README.txt',
      'audit-trail.json',
      'bank-reconciliation.pdf',
      'manifest.json',
      'report.csv',
      'report.xlsx',
      'settings.json',
      'statements/01-oct.csv',
      'summary.csv'
    ])
    expect(await zip.file('statements/01-oct.csv')?.async('string')).toBe(STATEMENT)
    expect(await zip.file('summary.csv')?.async('string')).toMatch(/"bank_reconciliation","Difference left","NGN",,,,,0\.00,"nothing left"/)
    expect(await zip.file('README.txt')?.async('string')).toContain(head)
    // The close event, inside the chain, names every file the pack holds besides the trail, its README and manifest.
    const close = service.events(id).find((e) => e.kind === 'close')
    expect(close?.kind === 'close' ? close.payload.evidence?.files.map((f) => f.path).sort() : null).toEqual([
      'bank-reconciliation.pdf',
      'report.csv',
      'report.xlsx',
      'settings.json',
      'statements/01-oct.csv',
      'summary.csv'
    ])
    const report = await verifyEvidencePack(readFileSync(pack))
    expect(report).toMatchObject({ ok: true, problems: [], chainHead: head, events: service.events(id).length })
    // Written again, it is the same files (the workbook too): the pack a preparer writes later still matches the close.
    const again = join(dir, 'again.zip')
    await service.evidencePack(id, again, PROFILE)
    expect(await verifyEvidencePack(readFileSync(again))).toMatchObject({ ok: true, chainHead: head })
  })

  it('refuses, by name and writing nothing, a close that bound no files or bound them in another report layout', async () => {
    const id = await closedSession()
    const input = service.reportInput(id, PROFILE)
    const closeOf = (change: (evidence: Record<string, unknown>) => Record<string, unknown> | undefined) => ({
      ...input,
      events: input.events.map((e) =>
        e.kind === 'close' && e.payload.evidence ? { ...e, payload: { ...e.payload, evidence: change({ ...e.payload.evidence }) } } : e
      )
    })
    const write = (changed: ReportInput, name: string) => writeEvidencePack(join(dir, name), changed, () => null, new Date())
    const older = closeOf((evidence) => {
      delete evidence['layout']
      return evidence
    }) as ReportInput
    await expect(write(older, 'older.zip')).rejects.toMatchObject({
      code: 'evidence_layout_old',
      message: expect.stringContaining('laid out otherwise (ledgerline-reports/1; this one writes ledgerline-reports/3)')
    })
    await expect(write(closeOf(() => undefined) as ReportInput, 'unbound.zip')).rejects.toMatchObject({ code: 'evidence_not_bound' })
    expect(existsSync(join(dir, 'older.zip')) || existsSync(join(dir, 'unbound.zip'))).toBe(false)
  })

  it('fails, naming what, when a report or the summary is edited and the manifest rewritten to match', async () => {
    const { pack, head } = await writtenPack()
    // As the issue found it: every amount_differs or only_in_file made "matched", the summary's difference made nothing left.
    const edits: Record<string, (b: Buffer) => Buffer> = {
      'report.csv': (b) => Buffer.from(b.toString('utf8').replace(/only_in_file/g, 'matched')),
      'summary.csv': (b) => Buffer.from(b.toString('utf8').replace('"only_in_file"', '"matched"')),
      'report.xlsx': (b) => Buffer.concat([b, Buffer.from(' ')]),
      'settings.json': (b) => Buffer.from(b.toString('utf8').replace('"daysAfter": 5', '"daysAfter": 9'))
    }
    for (const [path, edit] of Object.entries(edits)) {
      const edited = await rewritten(pack, async (files) => {
        const before = files.get(path) as Buffer
        files.set(path, edit(before))
        expect(files.get(path)?.equals(before), path).toBe(false)
        await coverInManifest(files)
      })
      const result = await verifyEvidencePack(edited)
      expect(result.ok, path).toBe(false)
      expect(result.chainHead).toBe(head)
      expect(
        result.problems.some((p) => p.what === path && /not the file the session was closed with/.test(p.message)),
        path
      ).toBe(true)
    }
  })

  it('fails naming the statement when one byte of it changed, and the event when one event changed, was deleted, moved or added', async () => {
    const { pack } = await writtenPack()
    const oneByte = await rewritten(pack, (files) => {
      const copy = Buffer.from(files.get('statements/01-oct.csv') as Buffer)
      copy[copy.indexOf('1,000.00')] = '7'.charCodeAt(0)
      files.set('statements/01-oct.csv', copy)
    })
    const statement = await verifyEvidencePack(oneByte)
    expect(statement.ok).toBe(false)
    expect(statement.problems.map((p) => p.what)).toEqual(['statements/01-oct.csv', 'statements/01-oct.csv'])
    expect(statement.problems[0]?.message).toMatch(/^it is not the file the session was closed with: its SHA-256 is [0-9a-f]{64}/)
    expect(statement.problems[1]?.message).toMatch(/^it is not the file that was imported/)

    const edited = await verifyEvidencePack(
      await rewritten(
        pack,
        (files) =>
          void files.set(
            'audit-trail.json',
            Buffer.from(
              (files.get('audit-trail.json') as Buffer)
                .toString('utf8')
                .replace('SMS charges, booked to bank fees', 'SMS charges, written off')
            )
          )
      )
    )
    expect(edited.ok).toBe(false)
    expect(
      edited.problems.some(
        (p) => /^event \d+ \(note\)$/.test(p.what) && /its content was changed after it was written \(note at .* by ada\)/.test(p.message)
      )
    ).toBe(true)
    const deleted = await verifyEvidencePack(
      await rewritten(
        pack,
        trailEdit((events) => events.splice(2, 1))
      )
    )
    expect(deleted.ok).toBe(false)
    expect(deleted.problems.map((p) => p.message).join(' ')).toMatch(/event 3 is missing/)
    const reordered = await verifyEvidencePack(
      await rewritten(
        pack,
        trailEdit((events) => events.reverse())
      )
    )
    expect(reordered.ok).toBe(false)
    const added = await verifyEvidencePack(
      await rewritten(
        pack,
        trailEdit((events) =>
          events.push({ ...(events.at(-1) as { seq: number; kind: string; payload: unknown }), seq: events.length + 1 })
        )
      )
    )
    expect(added.ok).toBe(false)
    expect(added.problems.map((p) => p.message).join(' ')).toMatch(
      /events were removed or added|does not follow|changed after it was written/
    )
  })

  it('fails when a file is added or dropped, even with the manifest rewritten, and when the manifest names another head', async () => {
    const { pack } = await writtenPack()
    const extra = await verifyEvidencePack(await rewritten(pack, (files) => void files.set('statements/02-extra.csv', Buffer.from('x'))))
    expect(extra.problems).toContainEqual({
      what: 'statements/02-extra.csv',
      message: expect.stringMatching(/neither the manifest nor the close names it/)
    })
    const withManifest = await verifyEvidencePack(
      await rewritten(pack, async (files) => {
        files.set('statements/02-extra.csv', Buffer.from('x'))
        await coverInManifest(files)
      })
    )
    expect(withManifest.problems).toContainEqual({
      what: 'statements/02-extra.csv',
      message: 'the manifest lists it, but the close did not record it'
    })
    const dropped = await verifyEvidencePack(await rewritten(pack, (files) => void files.delete('report.csv')))
    expect(dropped.problems).toContainEqual({ what: 'report.csv', message: 'the close recorded it, but it is missing from the pack' })
    const otherHead = await verifyEvidencePack(
      await rewritten(pack, (files) => {
        const m = JSON.parse((files.get('manifest.json') as Buffer).toString('utf8')) as { chainHead: string }
        m.chainHead = '0'.repeat(64)
        files.set('manifest.json', Buffer.from(JSON.stringify(m)))
      })
    )
    expect(otherHead.ok).toBe(false)
  })

  it('fails on every cell of the tamper matrix: each file changed, removed, duplicated or added, each event changed, deleted, moved or added, each with the manifest rewritten to match and without', async () => {
    const { pack } = await writtenPack()
    const original = await rewritten(pack, () => undefined)
    expect((await verifyEvidencePack(original)).ok).toBe(true)
    const names = [...(await rewritten(pack, () => undefined).then((b) => JSZip.loadAsync(b))).file(/.*/)].map((f) => f.name)
    expect(names).toEqual(
      expect.arrayContaining(['manifest.json', 'README.txt', 'audit-trail.json', 'report.csv', 'statements/01-oct.csv'])
    )
    const cells: [string, (files: Map<string, Buffer>) => void][] = []
    for (const name of names) {
      cells.push([`${name} changed (one byte)`, (files) => void files.set(name, flipOne(files.get(name) as Buffer, name))])
      cells.push([
        `${name} changed (a line added)`,
        (files) => void files.set(name, Buffer.concat([files.get(name) as Buffer, Buffer.from('\n')]))
      ])
      cells.push([`${name} removed`, (files) => void files.delete(name)])
    }
    cells.push(['a file added', (files) => void files.set('statements/00-more.csv', Buffer.from('Date,Amount\n01/10/2026,5.00\n'))])
    const count = (await verifyEvidencePack(original)).events
    for (let k = 0; k < count; k++) {
      cells.push([`event ${k + 1} deleted`, trailEdit((events) => void events.splice(k, 1))])
      cells.push([`event ${k + 1} changed`, trailEdit((events) => void ((events[k] as unknown as { user: string }).user = 'mallory'))])
      cells.push([`event ${k + 1} added again`, trailEdit((events) => void events.splice(k, 0, { ...(events[k] as object) } as never))])
      if (k + 1 < count)
        cells.push([
          `events ${k + 1} and ${k + 2} swapped`,
          trailEdit((events) => void events.splice(k, 2, events[k + 1] as never, events[k] as never))
        ])
    }
    const missed: string[] = []
    for (const [what, change] of cells)
      for (const covered of [false, true]) {
        const tampered = await rewritten(pack, async (files) => {
          change(files)
          if (covered && !what.startsWith('manifest.json')) await coverInManifest(files)
        })
        const result = await verifyEvidencePack(tampered).catch((error: Error) => ({
          ok: false,
          problems: [{ what, message: error.message }]
        }))
        if (result.ok || result.problems.length === 0)
          missed.push(`${what}${covered ? ', manifest rewritten' : ''} (seed ${PROPERTY_SEED})`)
      }
    expect(missed).toEqual([])
    // Duplicated: a second entry of each name.
    for (const name of names) {
      const files = await JSZip.loadAsync(original)
      const entries: Record<string, Uint8Array> = {}
      for (const f of files.file(/.*/)) entries[f.name] = await f.async('uint8array')
      const twinName = `${name.slice(0, -1)}\u0000`
      const zipped = Buffer.from(zipSync({ ...entries, [twinName]: entries[name] as Uint8Array }))
      for (let at = zipped.indexOf(twinName); at >= 0; at = zipped.indexOf(twinName, at + 1)) zipped.write(name, at, 'latin1')
      const result = await verifyEvidencePack(zipped)
      expect(result.ok, `${name} twice`).toBe(false)
    }
  })

  it('finds a change to any one byte of the manifest or the audit trail, each byte tried in turn', { timeout: 120_000 }, async () => {
    const { pack } = await writtenPack()
    const zip = await JSZip.loadAsync(readFileSync(pack))
    const files = new Map<string, Buffer>()
    for (const [path, entry] of Object.entries(zip.files)) if (!entry.dir) files.set(path, await entry.async('nodebuffer'))
    const missed: string[] = []
    for (const name of ['manifest.json', 'audit-trail.json']) {
      const bytes = files.get(name) as Buffer
      for (let at = 0; at < bytes.length; at++) {
        const changed = Buffer.from(bytes)
        changed[at] = (changed[at] as number) ^ 0x01
        const out = new JSZip()
        for (const [path, b] of files) out.file(path, path === name ? changed : b)
        const result = await verifyEvidencePack(await out.generateAsync({ type: 'nodebuffer' })).catch((error: Error) => ({
          ok: !/not an evidence pack/.test(error.message)
        }))
        if (result.ok) missed.push(`${name} byte ${at}: ${JSON.stringify(bytes.subarray(Math.max(0, at - 20), at + 10).toString())}`)
      }
    }
    expect(missed).toEqual([])
  })

  it('refuses two entries of one name, says a damaged zip is damaged, and checks a declared size before inflating', async () => {
    const { pack } = await writtenPack()
    const files = new Map<string, Buffer>()
    const zip = await JSZip.loadAsync(readFileSync(pack))
    for (const [p, e] of Object.entries(zip.files)) files.set(p, await e.async('nodebuffer'))
    // Two central-directory entries named report.csv: fflate writes what it is given, so the second name is patched in.
    const twice = Buffer.from(
      zipSync({ ...Object.fromEntries([...files].map(([p, b]) => [p, new Uint8Array(b)])), 'report.csx': new Uint8Array(Buffer.from('x')) })
    )
    twice.write('report.csv', twice.lastIndexOf('report.csx'), 'latin1')
    twice.write('report.csv', twice.indexOf('report.csx'), 'latin1')
    const duplicate = await verifyEvidencePack(twice)
    expect(duplicate).toMatchObject({
      ok: false,
      problems: [{ what: 'the pack', message: expect.stringMatching(/holds two entries named "report.csv"/) }]
    })
    const bytes = readFileSync(pack)
    // One byte flipped inside report.csv's compressed data: the zip's own checks find it (never a raw "Bug" or size mismatch).
    const entry = zipEntries(bytes, 'pack').find((e) => e.name === 'report.csv') as ZipEntry
    const flipped = Buffer.from(bytes)
    const at =
      entry.offset +
      30 +
      flipped.readUInt16LE(entry.offset + 26) +
      flipped.readUInt16LE(entry.offset + 28) +
      Math.floor(entry.compressedSize / 2)
    flipped[at] = (flipped[at] as number) ^ 0xff
    const damaged = await verifyEvidencePack(flipped)
    expect(damaged.ok).toBe(false)
    expect(damaged.problems).toContainEqual({
      what: 'report.csv',
      message: expect.stringMatching(
        /^This pack is damaged: its part report.csv (does not inflate|does not match its checksum|inflates to)/
      )
    })
    expect(damaged.problems.map((p) => p.message).join(' ')).not.toMatch(/Bug|size mismatch/)
    const small = await verifyEvidencePack(bytes, 100)
    expect(small.problems.some((p) => /would inflate to .* more than the 0 MB Ledgerline reads of one part/.test(p.message))).toBe(true)
    writeFileSync(join(dir, 'not.zip'), 'hello')
    await expect(verifyEvidencePack(readFileSync(join(dir, 'not.zip')))).rejects.toThrow(/not a readable zip/)
  })

  it('is written only for a closed session; reopened and closed again, a new pack is written and the old one still checks', async () => {
    const id = await closedSession()
    const first = join(dir, 'first.zip')
    const one = await service.evidencePack(id, first, PROFILE)
    service.reopen(id, 'Bank corrected a line')
    expect(() => service.evidencePack(id, join(dir, 'open.zip'), PROFILE)).toThrow(/Close the session "October" first/)
    await service.close(id, PROFILE)
    const second = join(dir, 'second.zip')
    const two = await service.evidencePack(id, second, PROFILE)
    expect(two.chainHead).not.toBe(one.chainHead)
    expect((await verifyEvidencePack(readFileSync(first))).ok).toBe(true)
    expect(await verifyEvidencePack(readFileSync(second))).toMatchObject({ ok: true, events: service.events(id).length })
  })

  it('keeps a file of several statements once', async () => {
    const two = [
      'OFXHEADER:100',
      'DATA:OFXSGML',
      '',
      '<OFX><BANKMSGSRSV1>',
      ...['1111111111', '2222222222'].map(
        (acct) =>
          `<STMTTRNRS><STMTRS><CURDEF>NGN<BANKACCTFROM><ACCTID>${acct}</BANKACCTFROM><BANKTRANLIST><DTSTART>20261029<DTEND>20261029<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261029<TRNAMT>1000.00<FITID>${acct}1<REFNUM>PAY-0001</STMTTRN></BANKTRANLIST><LEDGERBAL><BALAMT>1000.00<DTASOF>20261029</LEDGERBAL></STMTRS></STMTTRNRS>`
      ),
      '</BANKMSGSRSV1></OFX>'
    ].join('\n')
    const imported = await service.importStatement({ profileId: 'test', name: 'two.ofx', bytes: Buffer.from(two) })
    expect(imported.status).toBe('imported')
    const session = service.createSession({
      profileId: 'test',
      name: 'Two accounts',
      source: 'payments',
      from: '2026-10-29',
      to: '2026-10-29',
      timeZone: 'UTC',
      fileIds: imported.status === 'imported' ? imported.files.map((f) => f.id) : []
    })
    await service.run(session.id)
    await service.close(session.id, PROFILE)
    const pack = join(dir, 'two.zip')
    await service.evidencePack(session.id, pack, PROFILE)
    const zip = await JSZip.loadAsync(readFileSync(pack))
    expect(Object.keys(zip.files).filter((f) => f.startsWith('statements/') && !zip.files[f]?.dir)).toEqual(['statements/01-two.ofx'])
    const manifest = JSON.parse((await zip.file('manifest.json')?.async('string')) as string) as { statements: { path: string }[] }
    expect(manifest.statements.map((s) => s.path)).toEqual(['statements/01-two.ofx', 'statements/01-two.ofx'])
    expect((await verifyEvidencePack(readFileSync(pack))).ok).toBe(true)
  })
})
