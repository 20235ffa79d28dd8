// The evidence pack an auditor opens without Ledgerline: one zip of the reports, every statement exactly as imported (a file once), the audit trail with its hash chain, the settings, and how to check it all by hand; its files bound to the sign-off, since closing records their SHA-256 in the chain; and the offline check of such a pack.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { z } from 'zod'
import { RULE_VERSION, type SessionInfo } from '../../shared/reconcile'
import type { ClosedEvidence, EvidenceFile } from '../../shared/reconcile-events'
import { AppError } from '../errors'
import { writeFileSafely } from '../files/safe-file'
import { DEFAULT_INFLATED_LIMIT, zipEntries, zipEntryBytes, ZipError, type ZipEntry } from '../files/zip'
import { chainProblems, GENESIS, type AuditEvent } from './audit'
import { writeItemsCsv, writeSummaryCsv, writeXlsx } from './report'
import { ISO } from '../../shared/locale'
import type { ReportInput } from './totals'
import { bankRecStatement, writeBankRecPdf } from './bank-rec-statement'

/** Which of the pack's files is being written, and how many of them are: what a job or the CLI shows while a pack is made. */
export type PackProgress = (file: string, done: number, total: number) => void

/** The pack's own format, written into its manifest. */
export const EVIDENCE_FORMAT = 'ledgerline-evidence/2'

/**
 * How the reports of a pack are laid out: bumped whenever a report's bytes change for the same
 * session (a column, a sheet, the PDF). A close records it; a pack of a close made under another
 * layout cannot be written again byte for byte, and says so.
 */
export const REPORT_LAYOUT = 'ledgerline-reports/3'

/** What a manifest Ledgerline writes holds, and nothing else: checked before it is read, so a key or a type changed is named, never a crash. */
const MANIFEST_SHAPE = z.strictObject({
  format: z.string(),
  session: z.strictObject({
    id: z.string(),
    name: z.string(),
    source: z.string(),
    from: z.string(),
    to: z.string(),
    timeZone: z.string(),
    closedAt: z.string().nullable(),
    closedBy: z.string().nullable()
  }),
  profile: z.strictObject({ name: z.string(), mode: z.string() }),
  ruleVersion: z.string(),
  /** Written by packs before 2026-11-27; nothing bound it to the sign-off, so packs no longer say it (the zip's entries carry the time). */
  writtenAt: z.string().optional(),
  /** The last event's hash: the whole trail is bound to it, and through the close event every file below. */
  chainHead: z.string(),
  events: z.number().int(),
  /** The close event whose record of the files this pack holds. */
  closeSeq: z.number().int(),
  files: z.array(z.strictObject({ path: z.string(), sha256: z.string(), bytes: z.number().int() })),
  /** Each statement of the session: its SHA-256 as recorded at import, and where its bytes are in the pack (one file once, however many statements it holds). */
  statements: z.array(z.strictObject({ name: z.string(), sha256: z.string(), path: z.string().nullable() }))
})
type Manifest = z.infer<typeof MANIFEST_SHAPE>

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex')

/** A statement's name as a file name in the pack: its number first (two statements may share a name), nothing that leaves the folder. */
const packedName = (n: number, name: string): string =>
  `statements/${String(n).padStart(2, '0')}-${name.replace(/[^A-Za-z0-9._ -]+/g, '_').slice(0, 120)}`

/** Where each statement of the session sits in the pack: a file's bytes once, under the first of its statements' names. */
function statementPaths(session: SessionInfo): { name: string; sha256: string; path: string; fileId: string }[] {
  const bySha = new Map<string, string>()
  return session.files.map((f, k) => {
    const path = bySha.get(f.sha256) ?? packedName(k + 1, f.name)
    bySha.set(f.sha256, path)
    return { name: f.name, sha256: f.sha256, path, fileId: f.id }
  })
}

/** The session as the close event leaves it: its reports are written as of that moment, whenever they are written. */
function asClosed(input: ReportInput, close: { at: string; user: string; seq: number }, profile: ReportInput['profile']): ReportInput {
  return {
    ...input,
    profile,
    session: { ...input.session, closedAt: close.at, closedBy: close.user },
    events: input.events.filter((e) => e.seq < close.seq)
  }
}

/**
 * The files the pack holds besides the audit trail, its README and its manifest, written into `dir`
 * and hashed: the reports as of the close (the workbook made the same bytes each time), the settings,
 * and each statement file once (hashed from the import's record; its bytes are added by the pack).
 */
async function reportFiles(
  dir: string,
  input: ReportInput,
  closedAt: string,
  progress: PackProgress,
  signal: AbortSignal | undefined
): Promise<EvidenceFile[]> {
  const steps = 4
  progress('report.csv and the summary', 0, steps)
  const { summary } = await writeItemsCsv(join(dir, 'report.csv'), input, 'excel', signal && { signal })
  progress('report.xlsx', 1, steps)
  signal?.throwIfAborted()
  await writeXlsx(join(dir, 'report.xlsx'), summary, input, new Date(closedAt))
  progress('summary.csv', 2, steps)
  signal?.throwIfAborted()
  await writeSummaryCsv(join(dir, 'summary.csv'), summary, input)
  progress('bank-reconciliation.pdf', 3, steps)
  signal?.throwIfAborted()
  await writeBankRecPdf(join(dir, 'bank-reconciliation.pdf'), bankRecStatement(summary, input), new Date(closedAt))
  progress('settings.json', 4, steps)
  signal?.throwIfAborted()
  const session = input.session
  const settings = Buffer.from(
    `${JSON.stringify({ ruleVersion: RULE_VERSION, settings: session.settings, source: session.source, filter: session.filter, period: { from: session.from, to: session.to, timeZone: session.timeZone } }, null, 2)}\n`
  )
  writeFileSync(join(dir, 'settings.json'), settings)
  const files: EvidenceFile[] = ['bank-reconciliation.pdf', 'report.csv', 'report.xlsx', 'summary.csv', 'settings.json'].map((path) => {
    const bytes = readFileSync(join(dir, path))
    return { path, sha256: sha256(bytes), bytes: bytes.byteLength }
  })
  const seen = new Set<string>()
  for (const s of statementPaths(session))
    if (!seen.has(s.path)) {
      seen.add(s.path)
      files.push({ path: s.path, sha256: s.sha256, bytes: null })
    }
  return files
}

/**
 * What closing a session binds: every file of its evidence pack (reports, summary, settings,
 * statements), by SHA-256, with the profile the reports name. Recorded in the close event, so the
 * chain head kept with the sign-off covers them all. `signal`: a cancel, heard between the files and
 * between the report's writes (the CLI's Ctrl+C; the report's items are read meanwhile, so only from a
 * caller with the cache's connection to itself): nothing is left of the files written.
 */
export async function evidenceOnClose(
  input: ReportInput,
  closing: { at: string; user: string; seq: number },
  progress: PackProgress = () => undefined,
  signal?: AbortSignal
): Promise<ClosedEvidence> {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-evidence-'))
  try {
    return {
      profile: input.profile,
      files: await reportFiles(dir, asClosed(input, closing, input.profile), closing.at, progress, signal),
      layout: REPORT_LAYOUT,
      ...(input.locale && input.locale !== ISO ? { locale: input.locale } : {})
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Writes the pack of a closed session: its files as its last close recorded them (written again,
 * each checked against the SHA-256 the close recorded), the audit trail, settings.json, manifest.json
 * and README.txt. Returns the chain head it is bound to. `signal`: as evidenceOnClose's; a cancel
 * leaves no pack.
 */
export async function writeEvidencePack(
  file: string,
  input: ReportInput,
  statementBytes: (fileId: string) => Buffer | null,
  now: Date,
  progress: PackProgress = () => undefined,
  signal?: AbortSignal
): Promise<{ file: string; chainHead: string; files: number }> {
  const { session, events } = input
  const close = [...events].reverse().find((e) => e.kind === 'close')
  const evidence = close?.kind === 'close' ? close.payload.evidence : undefined
  if (!close || !evidence)
    throw new AppError(
      'evidence_not_bound',
      `"${session.name}" was closed by a Ledgerline that did not record its files in the audit trail: reopen it (with a reason) and close it again to write a pack an auditor can check.`
    )
  if ((evidence.layout ?? 'ledgerline-reports/1') !== REPORT_LAYOUT)
    throw new AppError(
      'evidence_layout_old',
      `"${session.name}" was closed by an earlier Ledgerline, whose reports were laid out otherwise (${evidence.layout ?? 'ledgerline-reports/1'}; this one writes ${REPORT_LAYOUT}): the files its close recorded cannot be written again byte for byte. Reopen it (with a reason) and close it again to bind today's reports; nothing was written.`
    )
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-evidence-'))
  try {
    const zip = new JSZip()
    const recorded = new Map(evidence.files.map((f) => [f.path, f]))
    const files: Manifest['files'] = []
    const add = (path: string, bytes: Buffer): void => {
      const hash = sha256(bytes)
      const bound = recorded.get(path)
      if (bound && bound.sha256 !== hash)
        throw new AppError(
          'evidence_changed',
          `${path} written now is not the file the close of "${session.name}" recorded (SHA-256 ${hash}, recorded ${bound.sha256}); nothing was written.`
        )
      zip.file(path, bytes, { date: now, binary: true })
      files.push({ path, sha256: hash, bytes: bytes.byteLength })
    }
    // Written as the close wrote them: its profile, and the locale of its reports for people, whatever is chosen now.
    const written = await reportFiles(
      dir,
      { ...asClosed(input, close, evidence.profile), locale: evidence.locale ?? ISO },
      close.at,
      progress,
      signal
    )
    for (const f of written) if (f.bytes !== null) add(f.path, readFileSync(join(dir, f.path)))
    const statements: Manifest['statements'] = []
    const packed = new Set<string>()
    for (const s of statementPaths(session)) {
      const bytes = packed.has(s.path) ? null : statementBytes(s.fileId)
      if (!packed.has(s.path) && bytes !== null) add(s.path, bytes)
      if (bytes !== null) packed.add(s.path)
      statements.push({ name: s.name, sha256: s.sha256, path: packed.has(s.path) ? s.path : null })
    }
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
    const chainHead = events.at(-1)?.hash ?? GENESIS
    const packSession: Manifest['session'] = {
      id: session.id,
      name: session.name,
      source: session.source,
      from: session.from,
      to: session.to,
      timeZone: session.timeZone,
      closedAt: close.at,
      closedBy: close.user
    }
    add('README.txt', Buffer.from(readme(packSession, chainHead, events.length, close.seq, files)))
    const manifest: Manifest = {
      format: EVIDENCE_FORMAT,
      session: packSession,
      profile: evidence.profile,
      ruleVersion: RULE_VERSION,
      chainHead,
      events: events.length,
      closeSeq: close.seq,
      files,
      statements
    }
    zip.file('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`, { date: now })
    const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } })
    signal?.throwIfAborted()
    await writeFileSafely(file, (fd) => {
      writeSync(fd, bytes)
    })
    return { file, chainHead, files: files.length + 1 }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The pack's README: written from the manifest's own values, so the check writes it again and finds any change to it. */
function readme(
  session: Manifest['session'],
  chainHead: string,
  events: number,
  closeSeq: number,
  files: readonly { path: string }[]
): string {
  // Packs of the first layout hold no PDF: their README is read back as it was written.
  const pdf = files.some((f) => f.path === 'bank-reconciliation.pdf')
  return `Ledgerline evidence pack — ${session.name}
Period ${session.from} to ${session.to} (${session.timeZone}), ${session.closedAt ? `closed ${session.closedAt} by ${session.closedBy}` : 'not closed'}.

What is in it
${
  pdf
    ? `  bank-reconciliation.pdf  the bank reconciliation statement to file: opening to closing, each class of
                    reconciling item, each statement's proof, the files' SHA-256 and the sign-off
`
    : ''
}  report.csv        every item of the reconciliation (Excel-safe CSV)
  report.xlsx       the same, with ${pdf ? 'the reconciliation statement and ' : ''}the summary, as one workbook
  summary.csv       the verdict, totals per currency and outcome, each statement's own check, and
                    the bank reconciliation statement (opening balance to closing balance, difference left)
  statements/       every statement file exactly as it was imported (a file of several statements once)
  audit-trail.json  every event of the session (runs, decisions, close, reopen), each with its hash
  settings.json     the matching settings and rule version
  manifest.json     the SHA-256 of every file above and the hash of the last event (the chain head)

How to check it by hand
  1. The audit trail: for each event in order, SHA-256 of
        previous hash + "\\n" + {"at":…,"kind":…,"payload":…,"seq":…,"session":…,"user":…}
     (that JSON with keys sorted at every level and no spaces; "session" is ${session.id})
     must be the event's hash; the first event's previous hash is 64 zeros, and each event's
     prevHash is the hash of the one before.
  2. The last event's hash must be ${chainHead}
     (${events} event(s)); the preparer kept this value with the sign-off.
  3. Event ${closeSeq} (the close) lists, in its payload's "evidence", the SHA-256 of every other file
     of this pack as it was when the session was closed. Each file's SHA-256 (sha256sum FILE on Linux,
     shasum -a 256 FILE on macOS, certutil -hashfile FILE SHA256 on Windows) must be the one listed
     there. Since the close event is inside the chain, a file changed after the sign-off cannot
     match, whatever manifest.json says.
  4. Each statement: its SHA-256 must also be the one summary.csv lists for that file.

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

/** A pack that cannot be checked at all, said as a report with one problem. */
const refused = (what: string, message: string): EvidenceReport => ({
  ok: false,
  files: 0,
  events: 0,
  chainHead: null,
  problems: [{ what, message }]
})

/**
 * What the manifest says of the session, against the trail it is bound to: the session as created (name, period, time
 * zone, source), and the close (its event, when and by whom). A manifest rewritten to say otherwise is named.
 */
function manifestAgainstTrail(
  manifest: Manifest,
  events: readonly { seq: number; kind: string; at: string; user: string; payload: unknown }[],
  close: { seq: number; at: string; user: string } | undefined,
  evidence: ClosedEvidence | undefined
): EvidenceProblem[] {
  const problems: EvidenceProblem[] = []
  const said = (what: string, manifestValue: unknown, trailValue: unknown, where: string): void => {
    if (manifestValue !== trailValue)
      problems.push({
        what: 'manifest.json',
        message: `its ${what} is ${JSON.stringify(manifestValue)}, but ${where} says ${JSON.stringify(trailValue)}`
      })
  }
  const created = events.find((e) => e.kind === 'session_created')?.payload as Record<string, unknown> | undefined
  if (created)
    for (const field of ['name', 'source', 'from', 'to', 'timeZone'] as const)
      said(`session ${field}`, manifest.session[field], created[field], "the audit trail's creation of the session")
  const lastClose = "the audit trail's last close"
  if (close) {
    said('session close event', manifest.closeSeq, close.seq, lastClose)
    said('session closing time', manifest.session.closedAt, close.at, lastClose)
    said('session closed by', manifest.session.closedBy, close.user, lastClose)
  }
  // The trail is read from the pack: an old or damaged close may lack its profile.
  if (evidence)
    for (const field of ['name', 'mode'] as const) said(`profile ${field}`, manifest.profile[field], evidence.profile?.[field], lastClose)
  return problems
}

/** Files a pack holds beside those its close recorded. */
const UNBOUND = new Set(['manifest.json', 'README.txt', 'audit-trail.json'])

/**
 * Checks a pack offline: the audit trail's chain up to the manifest's head; the files the last close
 * recorded (from inside the chain), each present once with that SHA-256; every file against the
 * manifest; nothing added; each statement against its recorded SHA-256. A zip that is damaged, names
 * an entry twice, or would inflate past the limit is said to be so, before anything is inflated.
 */
export async function verifyEvidencePack(bytes: Uint8Array, limit = DEFAULT_INFLATED_LIMIT): Promise<EvidenceReport> {
  let entries: ZipEntry[]
  try {
    entries = zipEntries(bytes, 'This pack')
  } catch (error) {
    if (error instanceof ZipError && error.code === 'duplicate_entry') return refused('the pack', error.message)
    if (error instanceof ZipError && error.message.includes('no zip directory'))
      throw new AppError('not_a_pack', `This is not an evidence pack Ledgerline wrote: it is not a readable zip (${error.message}).`)
    if (error instanceof ZipError) return refused('the pack', error.message)
    throw error
  }
  const problems: EvidenceProblem[] = []
  const contents = new Map<string, Buffer>()
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue
    try {
      contents.set(entry.name, zipEntryBytes(bytes, entry, 'This pack', limit))
    } catch (error) {
      if (!(error instanceof ZipError)) throw error
      problems.push({ what: entry.name, message: error.message })
    }
  }
  const manifestText = contents.get('manifest.json')
  if (!manifestText) {
    if (entries.some((e) => e.name === 'manifest.json')) return { ...refused('manifest.json', 'it cannot be read'), problems }
    throw new AppError('not_a_pack', 'This is not an evidence pack Ledgerline wrote: it has no manifest.json.')
  }
  let manifest: Manifest
  try {
    manifest = JSON.parse(manifestText.toString('utf8')) as Manifest
  } catch {
    return refused('manifest.json', 'it is not readable JSON')
  }
  if (!Array.isArray(manifest.files))
    throw new AppError('not_a_pack', `This is not an evidence pack Ledgerline reads (format ${JSON.stringify(manifest.format)}).`)
  if (manifestText.toString('utf8') !== `${JSON.stringify(manifest, null, 2)}\n`)
    problems.push({ what: 'manifest.json', message: 'it is not laid out as Ledgerline wrote it: its bytes were changed' })
  if (manifest.format !== EVIDENCE_FORMAT)
    return refused(
      'manifest.json',
      `it is a pack of format ${JSON.stringify(manifest.format)}, whose files are not bound to the sign-off: reopen the session and close it again to write one that is`
    )
  const shape = MANIFEST_SHAPE.safeParse(manifest)
  if (!shape.success) {
    const issue = shape.error.issues[0]
    return refused(
      'manifest.json',
      `it is not a manifest Ledgerline wrote: ${issue?.path.join('.') || 'it'}: ${issue?.message ?? 'unreadable'}`
    )
  }
  // The audit trail: every event's hash from its content and the one before, ending at the manifest's head.
  let events = 0
  let bound: Map<string, EvidenceFile> | null = null
  const trailText = contents.get('audit-trail.json')
  if (!trailText)
    problems.push({ what: 'audit-trail.json', message: 'it is missing, so neither the decisions nor the files can be checked' })
  else {
    try {
      const trail = JSON.parse(trailText.toString('utf8')) as {
        sessionId: string
        events: (Omit<AuditEvent, 'sessionId'> & { payload: unknown })[]
      }
      events = trail.events.length
      if (trailText.toString('utf8') !== `${JSON.stringify(trail, null, 2)}\n`)
        problems.push({ what: 'audit-trail.json', message: 'it is not laid out as Ledgerline wrote it: its bytes were changed' })
      for (const p of chainProblems(trail.sessionId, trail.events, { hash: manifest.chainHead, count: manifest.events })) {
        const event = p.seq === null ? null : trail.events.find((e) => e.seq === p.seq)
        problems.push({
          what: p.seq === null ? 'audit-trail.json' : `event ${p.seq}${event ? ` (${event.kind})` : ''}`,
          message: p.message
        })
      }
      if (trail.sessionId !== manifest.session.id)
        problems.push({ what: 'audit-trail.json', message: `it is the trail of another session (${trail.sessionId})` })
      const close = [...trail.events].reverse().find((e) => e.kind === 'close')
      const evidence = (close?.payload as { evidence?: ClosedEvidence } | undefined)?.evidence
      if (!close || !evidence) problems.push({ what: 'audit-trail.json', message: 'no close in it records the files of the pack' })
      else bound = new Map(evidence.files.map((f) => [f.path, f]))
      problems.push(...manifestAgainstTrail(manifest, trail.events, close, evidence))
    } catch {
      problems.push({ what: 'audit-trail.json', message: 'it is not readable JSON' })
    }
  }
  // Each file the close recorded: there, and the bytes it recorded.
  for (const f of bound?.values() ?? []) {
    const content = contents.get(f.path)
    if (!content) {
      if (!problems.some((p) => p.what === f.path))
        problems.push({ what: f.path, message: 'the close recorded it, but it is missing from the pack' })
      continue
    }
    const found = sha256(content)
    if (found !== f.sha256)
      problems.push({
        what: f.path,
        message: `it is not the file the session was closed with: its SHA-256 is ${found}, the close recorded ${f.sha256}`
      })
  }
  // Every file against the manifest, and nothing that neither the manifest nor the close names.
  const listed = new Map(manifest.files.map((f) => [f.path, f]))
  for (const path of contents.keys())
    if (path !== 'manifest.json' && !listed.has(path) && !bound?.has(path))
      problems.push({
        what: path,
        message: 'it is in the pack but neither the manifest nor the close names it (added after the pack was written)'
      })
  for (const f of manifest.files) {
    const content = contents.get(f.path)
    if (!content) {
      if (!problems.some((p) => p.what === f.path)) problems.push({ what: f.path, message: 'it is missing from the pack' })
      continue
    }
    if (bound && !bound.has(f.path) && !UNBOUND.has(f.path))
      problems.push({ what: f.path, message: 'the manifest lists it, but the close did not record it' })
    const found = sha256(content)
    const recorded = bound?.get(f.path)
    if (found !== f.sha256 && !recorded)
      problems.push({ what: f.path, message: `it was changed: its SHA-256 is ${found}, the manifest lists ${f.sha256}` })
    // A file the close recorded and that is still as recorded: the manifest must say the same of it.
    else if ((found !== f.sha256 && recorded?.sha256 === found) || (found === f.sha256 && f.bytes !== content.byteLength))
      problems.push({
        what: 'manifest.json',
        message: `it lists ${f.path} as ${f.bytes} bytes with SHA-256 ${f.sha256}; the file is ${content.byteLength} bytes with SHA-256 ${found}`
      })
  }
  // The rule version the settings were written with (settings.json is bound by the close).
  const settingsText = contents.get('settings.json')
  if (settingsText) {
    let settingsRule: unknown = null
    try {
      settingsRule = (JSON.parse(settingsText.toString('utf8')) as { ruleVersion?: unknown }).ruleVersion
    } catch {
      // Not JSON: settings.json's own SHA-256 check names it; here it states no rule version.
    }
    if (settingsRule !== manifest.ruleVersion)
      problems.push({
        what: 'manifest.json',
        message: `its rule version is ${JSON.stringify(manifest.ruleVersion)}, but settings.json says ${JSON.stringify(settingsRule)}`
      })
  }
  // The README, written again from the manifest's values: nothing in it was changed, and it tells what the trail says.
  const readmeText = contents.get('README.txt')
  if (!readmeText) {
    if (!problems.some((p) => p.what === 'README.txt')) problems.push({ what: 'README.txt', message: 'it is missing from the pack' })
  } else if (
    readmeText.toString('utf8') !== readme(manifest.session, manifest.chainHead, manifest.events, manifest.closeSeq, manifest.files)
  )
    problems.push({ what: 'README.txt', message: 'it is not the README Ledgerline wrote for this pack: its text was changed' })
  // Each statement: as recorded at import, and listed in the summary.
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
    if (!content)
      problems.push({ what: 'manifest.json', message: `it puts the statement ${s.name} at ${s.path}, which is not in the pack` })
    else if (sha256(content) !== s.sha256)
      problems.push({
        what: s.path,
        message: `it is not the file that was imported: its SHA-256 is ${sha256(content)}, the import recorded ${s.sha256}`
      })
    if (!summaryText.includes(s.sha256) || !summaryText.includes(s.name))
      problems.push({ what: 'summary.csv', message: `it does not list ${s.name} with the SHA-256 recorded at import` })
  }
  return { ok: problems.length === 0, files: contents.size, events, chainHead: manifest.chainHead, problems }
}
