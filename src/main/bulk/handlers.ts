// bulk:* calls: open a CSV into a builder, check it with the cached banks and plans, send it (native confirmation in live mode), save it, follow it back.
import { randomUUID } from 'node:crypto'
import { writeSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import Papa from 'papaparse'
import { BULK_FILE_LIMITS, normalizeTransferStatus } from '../../shared/api/assumptions'
import { ProblemList, sortProblems, type BulkKind } from '../../shared/bulk/problems'
import { readBulkBytes } from '../../shared/bulk/read'
import { providerCsv, statusCsv } from '../../shared/bulk/write'
import type { BulkContextInfo, OpenedBulkFile, SentFileStatus } from '../../shared/ipc/bulk'
import { AppError, notConfirmed } from '../errors'
import { writeFileSafely } from '../files/safe-file'
import type Database from 'better-sqlite3'
import type { CacheStore } from '../cache/store'
import type { MainUi } from '../ipc/questions'
import type { Logger } from '../log'
import type { ActiveProfile } from '../profiles/active'
import type { ClientPool } from '../profiles/clients'
import type { HandlerMap } from '../ipc/router'
import type { Profile } from '../profiles/service'
import { bulkContext, BulkService } from './service'

const KIND_NAMES: Record<BulkKind, string> = { transfers: 'bulk transfer', plans: 'bulk plan' }

/** How long an opened file's rows wait for the builder to fetch them. */
const HOLD_MS = 10 * 60_000

/** What the bulk calls use, wired by the host. */
export interface BulkServices {
  db: Database.Database
  store: CacheStore
  active: ActiveProfile
  clients: ClientPool
  ui: MainUi
  log: Logger
}

export function bulkHandlers(ctx: BulkServices): HandlerMap {
  const service = new BulkService(ctx.db)
  /** Opened files whose rows the builder is fetching, by token; one per profile at a time. */
  const held = new Map<string, { profileId: string; rows: string[][]; at: number }>()

  /** Reads the file, holds its rows for `bulk:rows`, and reports the problems of the file itself (row problems are worked out again on the builder's rows). */
  const opened = (kind: BulkKind, name: string, bytes: Uint8Array): OpenedBulkFile => {
    const profileId = ctx.active.current().id
    // Read only: the builder checks the rows itself, so only the file's own problems are reported here.
    const problems = new ProblemList()
    const table = readBulkBytes(kind, bytes, problems)
    for (const [token, entry] of held) if (entry.profileId === profileId || Date.now() - entry.at > HOLD_MS) held.delete(token)
    const token = randomUUID()
    held.set(token, { profileId, rows: table.rows, at: Date.now() })
    const sorted = sortProblems(problems.items, table.columns)
    const fileProblems = [...sorted.filter((p) => p.severity === 'error'), ...sorted.filter((p) => p.severity === 'warning')]
    return { fileName: name, rowCount: table.rows.length, token, fileProblems }
  }

  const write = (file: string, text: string): Promise<void> =>
    writeFileSafely(file, (fd) => {
      writeSync(fd, text)
    })

  const confirmLive = async (
    profile: Profile,
    kind: BulkKind,
    rows: number,
    totals: { currency: string; amount: string }[]
  ): Promise<void> => {
    if (profile.mode !== 'live') return
    const sums = totals.map((t) => `${t.currency} ${t.amount}`).join(', ') || 'no valid amounts'
    const yes = await ctx.ui.confirm({
      title: kind === 'transfers' ? 'Validate a live payout file?' : 'Create live plans?',
      message:
        kind === 'transfers'
          ? `Send ${rows} payout row(s) totalling ${sums} to the LIVE API of "${profile.name}" for validation?`
          : `Create ${rows} LIVE plan(s) (${sums}) in "${profile.name}"?`,
      detail: kind === 'transfers' ? 'The provider checks the file; no money moves.' : 'Customers can subscribe to the new plans at once.',
      confirmLabel: kind === 'transfers' ? 'Validate file' : 'Create plans'
    })
    if (!yes) throw notConfirmed(kind === 'transfers' ? 'Validating the payout file' : 'Creating the plans')
  }

  return {
    'bulk:context': (): BulkContextInfo => {
      const context = bulkContext(ctx.db, ctx.active.current().id)
      const banks: BulkContextInfo['banks'] = {}
      for (const [currency, list] of context.banks ?? []) {
        banks[currency] = [...list]
          .map(([code, name]) => ({ code, name }))
          .sort((a, b) => a.name.localeCompare(b.name) || (a.code < b.code ? -1 : 1))
      }
      return { banks, planReferences: [...(context.planReferences ?? [])] }
    },
    'bulk:open': async ({ kind }) => {
      const path = await ctx.ui.chooseOpenFile({
        title: `Open a ${KIND_NAMES[kind]} CSV`,
        filterName: 'CSV files',
        extensions: ['csv', 'txt', 'tsv']
      })
      if (!path) return null
      const size = (await stat(path)).size
      if (size > BULK_FILE_LIMITS.maxBytes)
        throw new AppError(
          'file_too_large',
          `${basename(path)} is ${Math.round(size / 1048576)} MB; a bulk file holds at most ${BULK_FILE_LIMITS.maxBytes / 1048576} MB.`
        )
      return opened(kind, basename(path), await readFile(path))
    },
    'bulk:openDropped': ({ kind, name, base64 }) => opened(kind, basename(name.replace(/\\/g, '/')), Buffer.from(base64, 'base64')),
    'bulk:rows': ({ token, from, count }) => {
      const entry = held.get(token)
      if (!entry || entry.profileId !== ctx.active.current().id)
        throw new AppError('not_open', 'That file is no longer open; open it again.')
      const rows = entry.rows.slice(from, from + count)
      if (from + count >= entry.rows.length) held.delete(token)
      return Papa.unparse(rows, { newline: '\n', quotes: false })
    },
    'bulk:check': ({ kind, csv }) => service.check(ctx.active.current().id, kind, csv).report,
    'bulk:send': async ({ kind, csv, fileName, transport }) => {
      const profile = ctx.active.current()
      const prepared = service.prepare(profile.id, kind, csv)
      await confirmLive(profile, kind, prepared.report.rows, prepared.report.totals)
      const client = await ctx.clients.for(profile)
      const sent =
        kind === 'transfers'
          ? await service.validateTransfers(profile.id, client, prepared, fileName, transport ?? 'json')
          : await service.uploadPlans(profile.id, client, prepared, fileName)
      ctx.log.info(
        `${KIND_NAMES[kind]} file ${sent.sha256.slice(0, 12)} (${sent.rows} rows) ${sent.action === 'validate' ? 'validated' : 'uploaded'} in "${profile.name}": ${sent.error ? sent.error.code : sent.accepted ? 'accepted' : `${sent.problems.length} problem(s)`}`
      )
      return sent
    },
    'bulk:save': async ({ kind, csv, fileName }) => {
      const file = await ctx.ui.chooseSaveFile({ suggestedName: fileName, filterName: 'CSV', extensions: ['csv'] })
      if (!file) return null
      const { report, table } = service.check(ctx.active.current().id, kind, csv)
      await write(file, providerCsv(kind, table.rows))
      return { file, rows: table.rows.length, report }
    },
    'bulk:history': () => service.history(ctx.active.current().id),
    'bulk:follow': async (input) => {
      const profile = ctx.active.current()
      const sent = service.get(profile.id, input.sendId)
      let bulkFileId: string
      if ('submit' in input) {
        if (!profile.builtIn)
          throw new AppError(
            'not_sandbox',
            `Submitting a file is for the built-in Sandbox; with "${profile.name}", submit it to the provider and enter the bulk file id it gives.`
          )
        const result = (await ctx.clients.builtInSandbox()).submitBulkFile(profile.mode, service.sentContent(profile.id, sent.id))
        if (!('id' in result)) throw new AppError('invalid_file', `The Sandbox refused the file: ${result.title}.`)
        bulkFileId = result.id
      } else bulkFileId = input.bulkFileId
      const followed = service.attachBulkFile(profile.id, sent.id, bulkFileId)
      ctx.store.track(profile.id, 'bulk_file', bulkFileId)
      ctx.log.info(`following bulk file ${bulkFileId} of sent file ${sent.id} in "${profile.name}"`)
      return followed
    },
    'bulk:status': ({ sendId }): SentFileStatus => {
      const profile = ctx.active.current()
      const sent = service.get(profile.id, sendId)
      const { rows, statuses } = service.sentStatuses(profile.id, sent)
      const counts = { successful: 0, failed: 0, pending: 0, notFound: 0 }
      for (const status of statuses) {
        if (!status) counts.notFound++
        else {
          const normal = normalizeTransferStatus(status.status)
          if (normal === 'successful') counts.successful++
          else if (normal === 'failed') counts.failed++
          else counts.pending++
        }
      }
      const followed = ctx.store.followedItems(profile.id).find((item) => item.kind === 'bulk_file' && item.value === sent.bulkFileId)
      return { sent, rows, statuses, counts, lastSyncedAt: followed?.lastSyncedAt ?? null }
    },
    'bulk:saveStatus': async ({ sendId, variant }) => {
      const profile = ctx.active.current()
      const sent = service.get(profile.id, sendId)
      if (!sent.bulkFileId) throw new AppError('not_followed', 'This file has no bulk file id yet: follow it first, then sync.')
      const { rows, statuses } = service.sentStatuses(profile.id, sent)
      const base = sent.fileName.replace(/\.csv$/i, '')
      const file = await ctx.ui.chooseSaveFile({
        suggestedName: `${base}-${variant === 'status' ? 'status' : 'retry'}.csv`,
        filterName: 'CSV',
        extensions: ['csv']
      })
      if (!file) return null
      if (variant === 'status') {
        await write(file, statusCsv(sent.kind, rows, statuses))
        return { file, rows: rows.length }
      }
      const failed = rows.filter((_, i) => {
        const status = statuses[i]
        return status !== null && status !== undefined && normalizeTransferStatus(status.status) === 'failed'
      })
      if (failed.length === 0) throw new AppError('nothing_failed', 'No row of this file has failed, so there is nothing to retry.')
      await write(file, providerCsv(sent.kind, failed))
      return { file, rows: failed.length }
    }
  }
}
