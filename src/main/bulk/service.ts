// Bulk files in the host: the rules' context from the cache, checking before anything is sent, sending to the provider, and every send kept with its result.
import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { CallErrorCode } from '../../shared/error-codes'
import type { FailedRequest } from '../../shared/api/schemas'
import { normalizeTransferStatus } from '../../shared/api/assumptions'
import { ProblemList, type BulkKind, type BulkProblem } from '../../shared/bulk/problems'
import { BULK_COLUMNS, headerKey, readBulkCsv, type BulkTable } from '../../shared/bulk/read'
import type { BankDirectory } from '../../shared/bulk/transfers'
import { validateBulkText, type BulkContext, type CheckedFile, type CurrencyTotal } from '../../shared/bulk/validate'
import { providerCsv, type RowStatus } from '../../shared/bulk/write'
import type { SentFile, Transport } from '../../shared/ipc/bulk'
import type { ApiClient } from '../api/client'
import { parseMajor } from '../../shared/money'
import { AppError } from '../errors'

interface SentRow {
  id: number
  kind: BulkKind
  action: 'validate' | 'upload'
  transport: Transport
  file_name: string
  sha256: string
  rows: number
  totals: string
  sent_at: string
  accepted: number
  result: string
  bulk_file_id: string | null
}

interface StoredResult {
  totalRequests: number | null
  problems: BulkProblem[]
  error: { code: CallErrorCode; message: string } | null
  status?: string | null
}

const fromRow = (row: SentRow): SentFile => {
  const result = JSON.parse(row.result) as StoredResult
  return {
    id: row.id,
    kind: row.kind,
    action: row.action,
    transport: row.transport,
    fileName: row.file_name,
    sha256: row.sha256,
    rows: row.rows,
    totals: JSON.parse(row.totals) as CurrencyTotal[],
    sentAt: row.sent_at,
    accepted: row.accepted === 1,
    problems: result.problems,
    totalRequests: result.totalRequests,
    providerStatus: result.status ?? null,
    error: result.error,
    bulkFileId: row.bulk_file_id
  }
}

/** The cached bank list and plan references of a profile: what the rules compare against. */
export function bulkContext(db: Database.Database, profileId: string): BulkContext {
  const banks = new Map<string, Map<string, string>>()
  for (const bank of db
    .prepare('select currency, bank_code as code, bank_name as name from banks where profile_id = ?')
    .iterate(profileId) as Iterable<{ currency: string; code: string; name: string }>) {
    let list = banks.get(bank.currency)
    if (!list) banks.set(bank.currency, (list = new Map()))
    list.set(bank.code, bank.name)
  }
  const planReferences = new Set(
    (
      db
        .prepare('select internal_reference as ref from plans where profile_id = ? and internal_reference is not null')
        .pluck()
        .all(profileId) as string[]
    ).filter(Boolean)
  )
  // The API lists no plans, so the plans uploaded from here count too: their references are taken.
  const column = BULK_COLUMNS.plans.indexOf('internalReference')
  for (const content of db
    .prepare("select content from bulk_sends where profile_id = ? and kind = 'plans' and action = 'upload' and accepted = 1")
    .pluck()
    .iterate(profileId) as Iterable<string>) {
    for (const row of readBulkCsv('plans', content, new ProblemList()).rows) if (row[column]) planReferences.add(row[column] as string)
  }
  return { banks: banks as BankDirectory, planReferences }
}

/**
 * A provider's failedRequests entry placed on the row and column it is about: its row is a data
 * row of the file sent (1-based, the failed-requests assumption), mapped back to the spreadsheet
 * row of the file as the user has it; its field is matched to the spec's column name whatever its
 * spelling. An entry without a row stays a problem of the whole file.
 */
export function locateFailedRequest(kind: BulkKind, failed: FailedRequest, sourceRows: readonly number[]): BulkProblem {
  const row = failed.row !== null && failed.row >= 1 && failed.row <= sourceRows.length ? (sourceRows[failed.row - 1] as number) : null
  const column = failed.field === null ? null : (BULK_COLUMNS[kind].find((c) => headerKey(c) === headerKey(failed.field as string)) ?? null)
  const unplaced = [
    failed.row !== null && row === null ? `data row ${failed.row}` : null,
    failed.field !== null && column === null ? `field ${failed.field}` : null
  ].filter(Boolean)
  return {
    row,
    column,
    code: failed.code ?? 'provider_rejected',
    message: `The provider says: ${failed.message}${unplaced.length ? ` (${unplaced.join(', ')})` : ''}`,
    severity: 'error'
  }
}

export class BulkService {
  constructor(private readonly db: Database.Database) {}

  /** Reads and checks a file's text with the profile's cached banks and plans. */
  check(profileId: string, kind: BulkKind, csv: string): CheckedFile {
    return validateBulkText(kind, csv, bulkContext(this.db, profileId), new ProblemList())
  }

  /**
   * Checks the file and refuses it when it has an error (nothing is sent); otherwise the table
   * and report to send, and the exact text the provider receives.
   */
  prepare(profileId: string, kind: BulkKind, csv: string): CheckedFile & { content: string } {
    const checked = this.check(profileId, kind, csv)
    if (!checked.report.valid) {
      const first = checked.report.errors[0] as BulkProblem
      const where = first.row !== null ? `row ${first.row}${first.column ? `, ${first.column}` : ''}: ` : ''
      throw new AppError(
        'file_has_errors',
        `The file has ${checked.report.errors.length} error(s) and was not sent. First: ${where}${first.message}`
      )
    }
    return { ...checked, content: providerCsv(kind, checked.table.rows) }
  }

  /** Validates a transfer file with the API (JSON body or multipart form) and keeps the send and its result. */
  async validateTransfers(
    profileId: string,
    client: ApiClient,
    prepared: CheckedFile & { content: string },
    fileName: string,
    transport: Transport,
    signal?: AbortSignal
  ): Promise<SentFile> {
    return this.send(profileId, 'transfers', 'validate', transport, prepared, fileName, async () => {
      const result = await client.validateBulkTransfers(prepared.content, { as: transport, fileName, ...(signal ? { signal } : {}) })
      return { totalRequests: result.totalRequests, failed: result.failedRequests, status: null }
    })
  }

  /** Uploads a plan file with the API (multipart) and keeps the send and its result. */
  async uploadPlans(
    profileId: string,
    client: ApiClient,
    prepared: CheckedFile & { content: string },
    fileName: string,
    signal?: AbortSignal
  ): Promise<SentFile> {
    return this.send(profileId, 'plans', 'upload', 'multipart', prepared, fileName, async () => {
      const result = await client.createBulkPlans(prepared.content, { fileName, ...(signal ? { signal } : {}) })
      return { totalRequests: null, failed: result.failedRequests, status: result.status }
    })
  }

  private async send(
    profileId: string,
    kind: BulkKind,
    action: 'validate' | 'upload',
    transport: Transport,
    prepared: CheckedFile & { content: string },
    fileName: string,
    call: () => Promise<{ totalRequests: number | null; failed: FailedRequest[]; status: string | null }>
  ): Promise<SentFile> {
    const sentAt = new Date().toISOString()
    let result: StoredResult
    try {
      const answer = await call()
      result = {
        totalRequests: answer.totalRequests,
        problems: answer.failed.map((f) => locateFailedRequest(kind, f, prepared.table.sourceRows)),
        error: null,
        status: answer.status
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      result = { totalRequests: null, problems: [], error: { code: error.code, message: error.message } }
    }
    const accepted = result.error === null && result.problems.length === 0
    const id = this.db
      .prepare(
        `insert into bulk_sends (profile_id, kind, action, transport, file_name, sha256, content, rows, totals, sent_at, accepted, result)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      .run(
        profileId,
        kind,
        action,
        transport,
        fileName,
        createHash('sha256').update(prepared.content).digest('hex'),
        prepared.content,
        prepared.report.rows,
        JSON.stringify(prepared.report.totals),
        sentAt,
        accepted ? 1 : 0,
        JSON.stringify(result)
      ).lastInsertRowid
    return this.get(profileId, Number(id))
  }

  get(profileId: string, id: number): SentFile {
    const row = this.db.prepare('select * from bulk_sends where profile_id = ? and id = ?').get(profileId, id) as SentRow | undefined
    if (!row) throw new AppError('sent_file_not_found', `No sent file ${id} in this profile.`)
    return fromRow(row)
  }

  /** The files sent from this profile, newest first. */
  history(profileId: string, limit = 50): SentFile[] {
    return (
      this.db.prepare('select * from bulk_sends where profile_id = ? order by id desc limit ?').all(profileId, limit) as SentRow[]
    ).map(fromRow)
  }

  /** The exact text that was sent. */
  sentContent(profileId: string, id: number): string {
    const content = this.db.prepare('select content from bulk_sends where profile_id = ? and id = ?').pluck().get(profileId, id) as
      string | undefined
    if (content === undefined) throw new AppError('sent_file_not_found', `No sent file ${id} in this profile.`)
    return content
  }

  /**
   * A sent file's rows (read again from the text that was sent; it passed every rule then) beside
   * each row's transfer as the cache has it: all null until the file is followed and synced.
   */
  sentStatuses(profileId: string, sent: SentFile): { rows: string[][]; statuses: ((RowStatus & { final: boolean }) | null)[] } {
    const rows = readBulkCsv(sent.kind, this.sentContent(profileId, sent.id), new ProblemList()).rows
    return { rows, statuses: sent.bulkFileId ? this.rowStatuses(profileId, sent.bulkFileId, { rows }) : rows.map(() => null) }
  }

  /** Records the bulk file id the provider gave for a sent transfer file. */
  attachBulkFile(profileId: string, id: number, bulkFileId: string): SentFile {
    const sent = this.get(profileId, id)
    if (sent.kind !== 'transfers') throw new AppError('not_a_transfer_file', 'Only a bulk transfer file has a bulk file id to follow.')
    this.db.prepare('update bulk_sends set bulk_file_id = ? where profile_id = ? and id = ?').run(bulkFileId, profileId, id)
    return this.get(profileId, id)
  }

  /**
   * Each row's transfer as the provider reports it, from the cached transfers of the bulk file:
   * a row is paired with the first unpaired transfer to the same account, bank, currency and
   * amount (narration breaks ties), so two identical payouts pair in order. Null: not found yet.
   */
  rowStatuses(profileId: string, bulkFileId: string, table: Pick<BulkTable, 'rows'>): ((RowStatus & { final: boolean }) | null)[] {
    const transfers = this.db
      .prepare(
        `select reference, service_reference as serviceReference, amount_minor as minor, currency, status, status_raw as statusRaw, account_number as account, bank_code as bank, narration, raw
         from transfers where profile_id = ? and bulk_file_id = ? order by rowid`
      )
      .all(profileId, bulkFileId) as {
      reference: string
      serviceReference: string | null
      minor: number | null
      currency: string
      status: string
      statusRaw: string
      account: string | null
      bank: string | null
      narration: string | null
      raw: string
    }[]
    const byKey = new Map<string, typeof transfers>()
    for (const t of transfers) {
      const key = `${t.currency}|${t.bank ?? ''}|${t.account ?? ''}|${t.minor ?? ''}`
      const list = byKey.get(key) ?? []
      list.push(t)
      byKey.set(key, list)
    }
    return table.rows.map((cells) => {
      const [amount = '', currency = '', bank = '', , account = '', , narration = ''] = cells
      const key = `${currency}|${bank}|${account}|${minorOf(amount, currency) ?? ''}`
      const list = byKey.get(key)
      if (!list || list.length === 0) return null
      const at = Math.max(
        0,
        list.findIndex((t) => (t.narration ?? '') === narration)
      )
      const [t] = list.splice(at, 1)
      if (!t) return null
      return {
        status: t.statusRaw,
        reference: t.reference,
        serviceReference: t.serviceReference,
        message: messageOf(t.raw),
        final: normalizeTransferStatus(t.statusRaw) !== 'pending'
      }
    })
  }
}

const minorOf = (amount: string, currency: string): number | null => {
  try {
    return parseMajor(amount, currency)
  } catch {
    return null
  }
}

/** A failure reason the provider put on a transfer, if any (the spec shows none; common spellings are read). */
function messageOf(raw: string): string | null {
  try {
    const record = JSON.parse(raw) as Record<string, unknown>
    for (const key of ['message', 'reason', 'failureReason', 'responseMessage'])
      if (typeof record[key] === 'string' && record[key] !== '') return record[key] as string
  } catch {
    /* raw is always JSON; nothing to add otherwise */
  }
  return null
}
