// The evidence pack an auditor opens without Ledgerline: one zip of the reports, every statement exactly as imported, the audit trail with its hash chain, the settings, and how to check it all by hand; and the offline check of such a pack.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { RULE_VERSION, type SessionInfo } from '../../shared/reconcile'
import { AppError } from '../errors'
import { writeFileSafely } from '../export/safe-file'
import { chainProblems, GENESIS, type AuditEvent } from './audit'
import { buildSummary, writeItemsCsv, writeSummaryCsv, writeXlsx, type ReportInput } from './report'

/** The pack's own format, written into its manifest. */
export const EVIDENCE_FORMAT = 'ledgerline-evidence/1'

/** What the manifest says of each file in the pack. */
interface PackedFile {
  path: string
  sha256: string
  bytes: number
}

interface Manifest {
  format: string
  session: {
    id: string
    name: string
    source: string
    from: string
    to: string
    timeZone: string
    closedAt: string | null
    closedBy: string | null
  }
  profile: { name: string; mode: string }
  ruleVersion: string
  writtenAt: string
  /** The last event's hash: the whole trail is bound to it. */
  chainHead: string
  events: number
  files: PackedFile[]
  /** Each statement of the session: its SHA-256 as recorded at import, and where its bytes are in the pack (null when they were not kept). */
  statements: { name: string; sha256: string; path: string | null }[]
}

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex')

/** A statement's name as a file name in the pack: its number first (two statements may share a name), nothing that leaves the folder. */
const packedName = (n: number, name: string): string =>
  `statements/${String(n).padStart(2, '0')}-${name.replace(/[^A-Za-z0-9._ -]+/g, '_').slice(0, 120)}`

/**
 * Writes the pack for a session: report.csv, report.xlsx, summary.csv (with the bank reconciliation
 * statement), statements/… exactly as imported, audit-trail.json, settings.json, manifest.json
 * (every file's SHA-256, the chain's head) and README.txt. Returns the chain head it is bound to.
 */
export async function writeEvidencePack(
  file: string,
  input: ReportInput,
  statementBytes: (fileId: string) => Buffer | null,
  now: Date
): Promise<{ file: string; chainHead: string; files: number }> {
  const { session, events } = input
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-evidence-'))
  try {
    const zip = new JSZip()
    const files: PackedFile[] = []
    const add = (path: string, bytes: Buffer): void => {
      zip.file(path, bytes, { date: now, binary: true })
      files.push({ path, sha256: sha256(bytes), bytes: bytes.byteLength })
    }
    // The reports, written as the app and the CLI write them.
    const summary = buildSummary(input)
    await writeItemsCsv(join(dir, 'report.csv'), input)
    await writeXlsx(join(dir, 'report.xlsx'), summary, input)
    await writeSummaryCsv(join(dir, 'summary.csv'), summary, input)
    for (const name of ['report.csv', 'report.xlsx', 'summary.csv']) add(name, readFileSync(join(dir, name)))
    const statements: Manifest['statements'] = session.files.map((f, k) => {
      const bytes = statementBytes(f.id)
      if (bytes === null) return { name: f.name, sha256: f.sha256, path: null }
      const path = packedName(k + 1, f.name)
      add(path, bytes)
      return { name: f.name, sha256: f.sha256, path }
    })
    const trail = events.map((e) => ({
      seq: e.seq,
      at: e.at,
      user: e.user,
      kind: e.kind,
      payload: e.payload,
      prevHash: e.prevHash,
      hash: e.hash
    }))
    add('audit-trail.json', Buffer.from(`${JSON.stringify({ sessionId: session.id, genesis: GENESIS, events: trail }, null, 2)}\n`))
    add(
      'settings.json',
      Buffer.from(
        `${JSON.stringify({ ruleVersion: RULE_VERSION, settings: session.settings, source: session.source, filter: session.filter, period: { from: session.from, to: session.to, timeZone: session.timeZone } }, null, 2)}\n`
      )
    )
    const chainHead = events.at(-1)?.hash ?? GENESIS
    add('README.txt', Buffer.from(readme(session, chainHead, events.length)))
    const manifest: Manifest = {
      format: EVIDENCE_FORMAT,
      session: {
        id: session.id,
        name: session.name,
        source: session.source,
        from: session.from,
        to: session.to,
        timeZone: session.timeZone,
        closedAt: session.closedAt,
        closedBy: session.closedBy
      },
      profile: input.profile,
      ruleVersion: RULE_VERSION,
      writtenAt: now.toISOString(),
      chainHead,
      events: events.length,
      files,
      statements
    }
    zip.file('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`, { date: now })
    const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } })
    await writeFileSafely(file, (fd) => {
      writeSync(fd, bytes)
    })
    return { file, chainHead, files: files.length + 1 }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function readme(session: SessionInfo, chainHead: string, events: number): string {
  return `Ledgerline evidence pack — ${session.name}
Period ${session.from} to ${session.to} (${session.timeZone}), ${session.closedAt ? `closed ${session.closedAt} by ${session.closedBy}` : 'not closed'}.

What is in it
  report.csv        every item of the reconciliation (Excel-safe CSV)
  report.xlsx       the same, with the summary, as one workbook
  summary.csv       totals per currency and outcome, each statement's own check, and the bank
                    reconciliation statement (opening balance to closing balance, difference left)
  statements/       every statement file exactly as it was imported
  audit-trail.json  every event of the session (runs, decisions, close, reopen), each with its hash
  settings.json     the matching settings and rule version
  manifest.json     the SHA-256 of every file above, each statement's SHA-256 as recorded at
                    import, and the hash of the last event (the chain head)

How to check it by hand
  1. Each file: its SHA-256 (sha256sum FILE on Linux, shasum -a 256 FILE on macOS,
     certutil -hashfile FILE SHA256 on Windows) must be the one manifest.json lists for it.
  2. Each statement: its SHA-256 must also be the one summary.csv lists for that file.
  3. The audit trail: for each event in order, SHA-256 of
        previous hash + "\\n" + {"at":…,"kind":…,"payload":…,"seq":…,"session":…,"user":…}
     (that JSON with keys sorted at every level and no spaces; "session" is ${session.id})
     must be the event's hash; the first event's previous hash is 64 zeros, and each event's
     prevHash is the hash of the one before.
  4. The last event's hash must be ${chainHead}
     (${events} event(s)); the preparer can confirm this value, which Ledgerline printed when
     the pack was written.

Or, with Ledgerline: ledgerline audit verify --evidence THIS-PACK.zip
`
}

export interface EvidenceProblem {
  /** The file or event it is about: "report.csv", "statements/01-oct.csv", "event 7 (note)", "manifest.json". */
  what: string
  message: string
}

export interface EvidenceReport {
  ok: boolean
  files: number
  events: number
  chainHead: string | null
  problems: EvidenceProblem[]
}

/** Checks a pack offline: every file against the manifest, each statement against its recorded SHA-256, and the audit trail's chain. */
export async function verifyEvidencePack(bytes: Uint8Array): Promise<EvidenceReport> {
  let zip: JSZip
  try {
    zip = await JSZip.loadAsync(bytes)
  } catch (error) {
    throw new AppError(
      'not_a_pack',
      `This is not an evidence pack Ledgerline wrote: it is not a readable zip (${(error as Error).message}).`
    )
  }
  const problems: EvidenceProblem[] = []
  const manifestFile = zip.file('manifest.json')
  if (!manifestFile) throw new AppError('not_a_pack', 'This is not an evidence pack Ledgerline wrote: it has no manifest.json.')
  let manifest: Manifest
  try {
    manifest = JSON.parse(await manifestFile.async('string')) as Manifest
  } catch {
    return { ok: false, files: 0, events: 0, chainHead: null, problems: [{ what: 'manifest.json', message: 'it is not readable JSON' }] }
  }
  if (manifest.format !== EVIDENCE_FORMAT || !Array.isArray(manifest.files))
    throw new AppError('not_a_pack', `This is not an evidence pack Ledgerline reads (format ${JSON.stringify(manifest.format)}).`)
  const listed = new Set(manifest.files.map((f) => f.path))
  for (const path of Object.keys(zip.files))
    if (!zip.files[path]?.dir && path !== 'manifest.json' && !listed.has(path))
      problems.push({ what: path, message: 'it is in the pack but not in the manifest (added after the pack was written)' })
  const contents = new Map<string, Buffer>()
  for (const f of manifest.files) {
    const entry = zip.file(f.path)
    if (!entry) {
      problems.push({ what: f.path, message: 'it is missing from the pack' })
      continue
    }
    const content = await entry.async('nodebuffer')
    contents.set(f.path, content)
    const found = sha256(content)
    if (found !== f.sha256)
      problems.push({ what: f.path, message: `it was changed: its SHA-256 is ${found}, the manifest lists ${f.sha256}` })
  }
  // Each statement: as recorded at import, in the manifest and in the summary.
  const summaryText = contents.get('summary.csv')?.toString('utf8') ?? ''
  for (const s of manifest.statements ?? []) {
    if (s.path === null) {
      problems.push({
        what: s.name,
        message: 'the statement was imported before Ledgerline kept statement files: only its SHA-256 is in the pack'
      })
      continue
    }
    const content = contents.get(s.path)
    if (content && sha256(content) !== s.sha256)
      problems.push({
        what: s.path,
        message: `it is not the file that was imported: its SHA-256 is ${sha256(content)}, the import recorded ${s.sha256}`
      })
    if (!summaryText.includes(s.sha256))
      problems.push({ what: 'summary.csv', message: `it does not list ${s.name} with the SHA-256 recorded at import` })
  }
  // The audit trail: every event's hash from its content and the one before, ending at the manifest's head.
  let events = 0
  const trailText = contents.get('audit-trail.json')
  if (!trailText) problems.push({ what: 'audit-trail.json', message: 'it is missing, so the decisions cannot be checked' })
  else {
    try {
      const trail = JSON.parse(trailText.toString('utf8')) as {
        sessionId: string
        events: (Omit<AuditEvent, 'sessionId'> & { payload: unknown })[]
      }
      events = trail.events.length
      for (const p of chainProblems(trail.sessionId, trail.events, { hash: manifest.chainHead, count: manifest.events })) {
        const event = p.seq === null ? null : trail.events.find((e) => e.seq === p.seq)
        problems.push({
          what: p.seq === null ? 'audit-trail.json' : `event ${p.seq}${event ? ` (${event.kind})` : ''}`,
          message: p.message
        })
      }
      if (trail.sessionId !== manifest.session.id)
        problems.push({ what: 'audit-trail.json', message: `it is the trail of another session (${trail.sessionId})` })
    } catch {
      problems.push({ what: 'audit-trail.json', message: 'it is not readable JSON' })
    }
  }
  return { ok: problems.length === 0, files: manifest.files.length + 1, events, chainHead: manifest.chainHead, problems }
}
