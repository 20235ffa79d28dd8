// recon:* and audit:verify calls: statements chosen in main's dialog and read here, sessions of the profile in use, runs and imports as jobs, decisions, reports.
import { randomUUID } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { plainFileName } from '../../shared/csv/excel-safe'
import type { StatementPreview } from '../../shared/ipc/contract'
import { knownLocale } from '../../shared/locale'
import { toMajorString } from '../../shared/money'
import type { ReconSource, ReconSummary, SessionInfo, StatementMapping } from '../../shared/reconcile'
import type { AuditEventBody } from '../../shared/reconcile-events'
import { AppError, notConfirmed } from '../errors'
import { sandboxSeed } from '../../sandbox/seed'
import { sampleStatement } from '../../sandbox/statement'
import { sampleStatementFile } from '../../sandbox/statement-formats'
import type Database from 'better-sqlite3'
import type { MainUi } from '../ipc/questions'
import type { JobControl, JobRunner } from '../jobs/runner'
import type { Logger } from '../log'
import type { ActiveProfile } from '../profiles/active'
import type { ProfileService } from '../profiles/service'
import type { HandlerMap } from '../ipc/router'
import { verifyAudit } from './audit'
import { PDF_PASSWORD_REQUIRED, PDF_PASSWORD_WRONG } from './import/pdf'
import type { ParsedStatement } from './import/parsed-statement'
import { writeItemsCsv, writeSummaryCsv, writeXlsx } from './report'
import { bankRecStatement, writeBankRecPdf } from './bank-rec-statement'
import type { PackProgress } from './evidence'
import { buildSummary, summaryOf, type ReportInput } from './totals'
import { ReconService, storedFileIds } from './service'
import { StatementReads } from './statement-store'
import type { SharedSessions } from './shared-sessions'

/** Largest statement read: a million-line CSV is about 150 MB. */
const MAX_STATEMENT_BYTES = 512 * 1024 * 1024
/** Files held between preview and import; the oldest goes first. */
const HELD_FILES = 4
const HELD_FOR_MS = 60 * 60 * 1000
const PREVIEW_ROWS = 200
const PREVIEW_PROBLEMS = 500

interface Held {
  profileId: string
  name: string
  bytes: Uint8Array
  at: number
  /** A protected PDF's password, as the user gave it: in memory with the file only, for its preview and import. */
  password?: string
  /** The file's readings by mapping: its previews and its import read the bytes once per mapping. */
  reads: StatementReads
}

/** The refusals that ask for a PDF's password: the held file's token goes with them, for recon:unlock. */
const PASSWORD_CODES = new Set([PDF_PASSWORD_REQUIRED, PDF_PASSWORD_WRONG])

/** What the recon calls use, wired by the host; `shared` is the team workspace's side of sessions shared there. */
export interface ReconServices {
  db: Database.Database
  profiles: Pick<ProfileService, 'get'>
  active: ActiveProfile
  jobs: JobRunner
  ui: MainUi
  log: Logger
  shared: SharedSessions
}

export function reconHandlers(ctx: ReconServices): HandlerMap {
  const service = new ReconService(ctx.db)
  const held = new Map<string, Held>()

  const hold = (entry: Held): string => {
    const token = randomUUID()
    held.set(token, entry)
    for (const [t, h] of held) if (held.size > HELD_FILES || Date.now() - h.at > HELD_FOR_MS) held.delete(t)
    return token
  }
  const heldFile = (token: string): Held => {
    const entry = held.get(token)
    if (!entry || entry.profileId !== ctx.active.current().id)
      throw new AppError('file_expired', 'That statement is no longer open here; choose the file again.')
    return entry
  }
  const preview = async (token: string, entry: Held, mapping: Partial<StatementMapping>): Promise<StatementPreview> => {
    let outcome: Awaited<ReturnType<ReconService['importStatement']>>
    try {
      outcome = await service.importStatement({
        profileId: entry.profileId,
        name: entry.name,
        bytes: entry.bytes,
        mapping,
        previewOnly: true,
        password: entry.password,
        reads: entry.reads
      })
    } catch (error) {
      if (error instanceof AppError && PASSWORD_CODES.has(error.code)) {
        delete entry.password
        throw new AppError(error.code, error.message, { token, name: entry.name })
      }
      throw error
    }
    const parsed = outcome.parsed
    const sameFile = service.files(entry.profileId).find((f) => f.sha256 === parsed.sha256) ?? null
    return toPreview(
      token,
      parsed,
      outcome.statements,
      outcome.presetApplied,
      sameFile,
      service.sameRows(
        entry.profileId,
        outcome.statements.map((s) => s.rows)
      )
    )
  }
  const sessionOfProfile = (id: string): SessionInfo => service.sessionOfProfile(id, ctx.active.current().id)
  const profileOf = (session: SessionInfo): ReportInput['profile'] => {
    const profile = ctx.profiles.get(session.profileId)
    return { name: profile.name, mode: profile.mode }
  }
  const reportInput = (session: SessionInfo): ReportInput => service.reportInput(session.id, profileOf(session))
  /** What the screen and the close dialog show: the session with its stored totals. */
  const screenSummary = (session: SessionInfo): ReconSummary => summaryOf(session, profileOf(session), service.totals(session.id))

  return {
    'recon:open': async ({ mapping }) => {
      const profile = ctx.active.current()
      const path = await ctx.ui.chooseOpenFile({
        title: 'Import a statement',
        filterName: 'Statements (CSV, Excel, PDF, MT940, CAMT, OFX, QIF)',
        extensions: ['csv', 'txt', 'tsv', 'xlsx', 'xls', 'pdf', 'sta', 'mt940', 'fin', 'xml', 'camt', 'ofx', 'qfx', 'qif']
      })
      if (!path) return null
      const size = (await stat(path)).size
      if (size > MAX_STATEMENT_BYTES)
        throw new AppError(
          'file_too_large',
          `${basename(path)} is ${Math.round(size / 1048576)} MB; statements up to ${MAX_STATEMENT_BYTES / 1048576} MB are read.`
        )
      const entry: Held = {
        profileId: profile.id,
        name: basename(path),
        bytes: await readFile(path),
        at: Date.now(),
        reads: new StatementReads()
      }
      return preview(hold(entry), entry, mapping ?? {})
    },
    'recon:openDropped': async ({ name, base64, mapping }) => {
      const profile = ctx.active.current()
      const bytes = Buffer.from(base64, 'base64')
      // Only the file's own name is kept: a dropped name never names a place on disk. What the file is, its content says.
      const entry: Held = {
        profileId: profile.id,
        name: basename(name.replace(/\\/g, '/')),
        bytes,
        at: Date.now(),
        reads: new StatementReads()
      }
      return preview(hold(entry), entry, mapping ?? {})
    },
    'recon:sample': async ({ format }) => {
      const profile = ctx.active.current()
      if (!profile.builtIn)
        throw new AppError(
          'not_sandbox',
          `The sample statement is for the built-in Sandbox profile; "${profile.name}" reconciles its own statements.`
        )
      const sample = sampleStatementFile(
        sampleStatement(sandboxSeed(), { timeZone: profile.timeZone, mode: profile.mode }),
        format ?? 'csv'
      )
      const entry: Held = { profileId: profile.id, name: sample.name, bytes: sample.bytes, at: Date.now(), reads: new StatementReads() }
      return preview(hold(entry), entry, {})
    },
    'recon:preview': async ({ token, mapping }) => preview(token, heldFile(token), mapping as Partial<StatementMapping>),
    'recon:unlock': async ({ token, password, mapping }) => {
      const entry = heldFile(token)
      entry.password = password
      return preview(token, entry, (mapping ?? {}) as Partial<StatementMapping>)
    },
    'recon:import': ({ token, mapping, ifSameFile, ifSameRows, saveAs }) => {
      const entry = heldFile(token)
      const profile = ctx.active.current()
      return ctx.jobs.start({
        kind: 'recon-import',
        profile,
        title: `Import of ${entry.name}`,
        run: async (job) => {
          job.progress({ phase: 'reading', done: 0, total: entry.bytes.byteLength }, true)
          const outcome = await service.importStatement({
            profileId: entry.profileId,
            name: entry.name,
            bytes: entry.bytes,
            mapping: (mapping ?? {}) as Partial<StatementMapping>,
            ifSameFile,
            ifSameRows,
            password: entry.password,
            reads: entry.reads
          })
          if (saveAs && outcome.parsed.questions.length === 0)
            service.savePreset(saveAs, outcome.parsed.headerSignature, outcome.parsed.mapping)
          if (outcome.status === 'imported') held.delete(token)
          ctx.log.info(
            `statement ${entry.name}: ${outcome.status}, ${outcome.statements.length} statement(s), ${outcome.statements.reduce((n, s) => n + s.rows.length, 0)} rows`
          )
          return {
            kind: 'recon-import' as const,
            status: outcome.status === 'preview' ? ('questions' as const) : outcome.status,
            fileId: storedFileIds(outcome)[0] ?? null,
            fileIds: storedFileIds(outcome),
            rows: outcome.statements.reduce((n, s) => n + s.rows.length, 0),
            problems: outcome.statements.reduce((n, s) => n + s.problems.length, 0),
            sameRows: outcome.status === 'same-rows' ? outcome.sameRows : 0
          }
        }
      })
    },
    'recon:files': () => service.files(ctx.active.current().id),
    'recon:fileDays': ({ fileId }) => service.fileDays(ctx.active.current().id, fileId),
    'recon:sessions': () => service.sessions(ctx.active.current().id),
    'recon:session': ({ id }) => sessionOfProfile(id),
    'recon:create': ({ name, source, bulkFileIds, references, from, to, settings, fileIds, account }) => {
      const profile = ctx.active.current()
      return service.createSession({
        profileId: profile.id,
        name,
        source: source as ReconSource,
        filter: { ...(bulkFileIds ? { bulkFileIds } : {}), ...(references ? { references } : {}) },
        from,
        to,
        timeZone: profile.timeZone,
        settings,
        fileIds,
        account
      })
    },
    'recon:addFiles': ({ sessionId, fileIds }) => {
      sessionOfProfile(sessionId)
      return service.addFiles(sessionId, fileIds)
    },
    'recon:settings': ({ sessionId, settings }) => {
      sessionOfProfile(sessionId)
      return service.updateSettings(sessionId, settings)
    },
    'recon:run': ({ sessionId }) => {
      const session = sessionOfProfile(sessionId)
      const profile = ctx.active.current()
      return ctx.jobs.start({
        kind: 'recon-run',
        profile,
        title: `Matching of "${session.name}"`,
        run: async (job) => {
          const outcome = await service.run(sessionId, {
            signal: job.signal,
            onProgress: (phase, done, total) => job.progress({ phase, done, total })
          })
          return { kind: 'recon-run' as const, sessionId, items: outcome.items, counts: outcome.counts }
        }
      })
    },
    'recon:items': ({ sessionId, ...query }) => {
      sessionOfProfile(sessionId)
      return service.items(sessionId, query)
    },
    'recon:acceptAllPreview': ({ sessionId, minScore, ...filter }) => {
      sessionOfProfile(sessionId)
      return service.previewAcceptAll(sessionId, filter, minScore)
    },
    // A shared session's decisions go through its workspace's outbox: the server orders them, and they come back on the next pull.
    'recon:acceptAll': async ({ sessionId, minScore, ...filter }) => {
      const session = sessionOfProfile(sessionId)
      if (session.team?.replay) {
        const { accepted } = await ctx.shared.acceptAll(sessionId, filter, minScore)
        return { accepted, session: service.session(sessionId) }
      }
      return service.acceptAll(sessionId, filter, minScore)
    },
    'recon:decide': async ({ sessionId, decision }) => {
      const session = sessionOfProfile(sessionId)
      if (session.team?.replay) {
        const { waiting } = await ctx.shared.decide(sessionId, decision)
        return { session: service.session(sessionId), item: null, inPlace: false, waiting }
      }
      return service.decide(sessionId, decision)
    },
    'recon:close': async ({ sessionId, locale }) => {
      const session = sessionOfProfile(sessionId)
      if (session.closedAt) return null
      service.notReplayed(sessionId)
      if (!session.lastRunAt) throw new AppError('not_run', 'Run the session before closing it.')
      const summary = screenSummary(session)
      const yes = await ctx.ui.confirm({
        title: 'Close this reconciliation?',
        message: `Close "${session.name}" (${session.from} to ${session.to})?`,
        detail: [
          summary.verdict.headline,
          `${summary.exceptions.toLocaleString('en-US')} item(s) still need attention; ${summary.counts.matched.toLocaleString('en-US')} matched.`,
          ...summary.currencies.map(
            (c) =>
              `${c.currency}: provider ${toMajorString(c.providerTotalMinor, c.currency)}, file ${toMajorString(c.fileTotalMinor, c.currency)}, unexplained ${toMajorString(c.unexplainedMinor, c.currency)}.`
          ),
          'A closed session is read-only; reopening it needs a reason, kept in its history.'
        ].join('\n'),
        confirmLabel: 'Close session'
      })
      if (!yes) throw notConfirmed(`Closing "${session.name}"`)
      return ctx.jobs.start({
        kind: 'recon-close',
        profile: ctx.active.current(),
        title: `Closing "${session.name}"`,
        run: async (job) => {
          // Closing binds every file of the evidence pack: each is written and hashed, which takes a while at scale.
          await service.close(sessionId, profileOf(session), {
            progress: packProgress(job, 'binding the evidence'),
            locale: knownLocale(locale)
          })
          return { kind: 'recon-close' as const, sessionId }
        }
      })
    },
    'recon:reopen': ({ sessionId, reason }) => {
      sessionOfProfile(sessionId)
      return service.reopen(sessionId, reason)
    },
    'recon:events': ({ sessionId }) => {
      sessionOfProfile(sessionId)
      // Kind and payload are taken together: they are one member of the union.
      return service
        .events(sessionId)
        .map((e) => ({ seq: e.seq, at: e.at, user: e.user, hash: e.hash, ...({ kind: e.kind, payload: e.payload } as AuditEventBody) }))
    },
    // The stored totals, kept with each run and decision: a million items are not read to show them.
    'recon:summary': ({ sessionId }) => screenSummary(sessionOfProfile(sessionId)),
    'recon:export': async ({ sessionId, format, locale }) => {
      const session = sessionOfProfile(sessionId)
      const extension = format === 'xlsx' || format === 'pdf' ? format : 'csv'
      const plain = format === 'items-plain-csv' || format === 'summary-plain-csv'
      const summaryFile = format === 'summary-csv' || format === 'summary-plain-csv'
      const stem = `ledgerline-${format === 'pdf' ? 'bank-reconciliation' : 'reconciliation'}-${session.from}-${session.to}${summaryFile ? '-summary' : ''}`
      const file = await ctx.ui.chooseSaveFile({
        suggestedName: plain ? plainFileName(`${stem}.csv`) : `${stem}.${extension}`,
        filterName:
          format === 'xlsx'
            ? 'Excel workbook'
            : format === 'pdf'
              ? 'Bank reconciliation statement (PDF)'
              : plain
                ? 'CSV (plain, for accounting software; not for Excel)'
                : 'CSV (Excel)',
        extensions: [extension]
      })
      if (!file) return { file: null }
      // A shared session's report carries its sign-off: a sheet of the workbook, a CSV beside the items.
      const signOff = session.team?.replay ? ctx.shared.reportSignOff(session.id) : null
      const input = { ...reportInput(session), ...(signOff ? { signOff: signOff.sheet } : {}), locale: knownLocale(locale) }
      const style = plain ? 'plain' : 'excel'
      let signOffFile: string | null = null
      if (format === 'items-csv' || format === 'items-plain-csv') {
        await writeItemsCsv(file, input, style)
        if (signOff && format === 'items-csv') signOffFile = await signOff.writeBeside(file)
      } else if (summaryFile) await writeSummaryCsv(file, buildSummary(input), input, style)
      else if (format === 'pdf') await writeBankRecPdf(file, bankRecStatement(buildSummary(input), input))
      else await writeXlsx(file, buildSummary(input), input)
      ctx.log.info(`reconciliation report written (${format})`)
      return { file, signOffFile }
    },
    'recon:evidence': async ({ sessionId }) => {
      const session = sessionOfProfile(sessionId)
      if (!session.closedAt) throw new AppError('session_open', 'Close the session first: an evidence pack is what was signed off.')
      const file = await ctx.ui.chooseSaveFile({
        suggestedName: `ledgerline-evidence-${session.from}-${session.to}.zip`,
        filterName: 'Evidence pack (zip)',
        extensions: ['zip']
      })
      if (!file) return null
      return ctx.jobs.start({
        kind: 'recon-evidence',
        profile: ctx.active.current(),
        title: `Evidence pack of "${session.name}"`,
        run: async (job) => {
          const written = await service.evidencePack(session.id, file, profileOf(session), packProgress(job, 'writing'))
          ctx.log.info(`evidence pack written (${written.files} files)`)
          return { kind: 'recon-evidence' as const, file, chainHead: written.chainHead, files: written.files }
        }
      })
    },
    'audit:verify': () => verifyAudit(ctx.db)
  }
}

/** A pack's files as a job's progress: the phase, the file being written, how many of them are done. */
function packProgress(job: JobControl, phase: string): PackProgress {
  return (file, done, total) => job.progress({ phase, step: file, done, total }, true)
}

function toPreview(
  token: string,
  parsed: ParsedStatement,
  statements: readonly ParsedStatement[],
  presetApplied: string | null,
  sameFile: StatementPreview['sameFile'],
  sameRows: number
): StatementPreview {
  return {
    token,
    name: parsed.name,
    sha256: parsed.sha256,
    encoding: parsed.encoding,
    separator: parsed.separator,
    sheet: parsed.sheet,
    header: parsed.header,
    headerLine: parsed.headerLine,
    mapping: parsed.mapping,
    numberForm: parsed.numberForm,
    dateForm: parsed.dateForm,
    rowCount: parsed.rows.length,
    rows: parsed.rows.slice(0, PREVIEW_ROWS).map(({ line, date, amountMinor, currency, reference, description, counterparty }) => ({
      line,
      date,
      amountMinor,
      currency,
      reference,
      description,
      counterparty
    })),
    problems: parsed.problems.slice(0, PREVIEW_PROBLEMS),
    problemCount: parsed.problems.length,
    skipped: parsed.skipped.slice(0, PREVIEW_PROBLEMS),
    questions: parsed.questions,
    proof: parsed.proof,
    format: parsed.format,
    pageStarts: parsed.pageStarts,
    label: parsed.label,
    statements: statements.map((s) => ({
      label: s.label,
      account: s.account,
      rows: s.rows.length,
      problems: s.problems.length,
      notRead: s.problems.slice(0, PREVIEW_PROBLEMS).map((p) => ({ line: p.line, text: p.text ?? '', reason: p.message })),
      proof: s.proof
    })),
    presetApplied,
    sameFile,
    sameRows
  }
}
