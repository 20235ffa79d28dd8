// One record as its drawer shows it: every field labelled, the JSON the provider sent, the records related to it, where it sits in reconciliations, and what can be done with it.
import type Database from 'better-sqlite3'
import {
  RELATED_LIMIT,
  RESOURCE_NAMES,
  type Cell,
  type ColumnKind,
  type DetailField,
  type RecordActions,
  type RecordDetail,
  type RecordResource,
  type RelatedRecord,
  type Relation
} from '../../shared/records'
import { formatMajor } from '../../shared/money'
import { inWords } from '../../shared/locale'
import { AppError } from '../errors'
import { placementsOfRecord } from '../reconcile/items'
import type { Profile } from '../profiles/service'

type Row = Record<string, unknown>

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v))
const moneyOf = (row: Row, minor: string, raw: string, currency: string): Cell => ({
  minor: typeof row[minor] === 'number' ? (row[minor] as number) : null,
  raw: str(row[raw]),
  currency: str(row[currency])
})

/** A field list entry: label, the column it comes from (or a money triple), how it is shown, and whether it is copied with a button. */
type FieldSpec = [label: string, source: string | [minor: string, raw: string, currency: string], kind: ColumnKind, copy?: boolean]

const FIELDS: Record<RecordResource, readonly FieldSpec[]> = {
  payments: [
    ['Payment id', 'id', 'code', true],
    ['Reference', 'reference', 'code', true],
    ['Service reference', 'service_reference', 'code', true],
    ['Status', 'status_raw', 'status'],
    ['Date', 'created_at', 'date'],
    ['Amount', ['amount_minor', 'amount_raw', 'currency'], 'money'],
    ['Fees', ['fees_minor', 'fees_raw', 'currency'], 'money'],
    ['Tax', ['tax_minor', 'tax_raw', 'currency'], 'money'],
    ['Local amount', ['local_amount_minor', 'local_amount_raw', 'local_currency'], 'money'],
    ['Total local amount', ['total_local_minor', 'total_local_raw', 'local_currency'], 'money'],
    ['Channel', 'channel', 'word'],
    ['Customer', 'customer_name', 'text'],
    ['Email', 'customer_email', 'text', true],
    ['Account / phone', 'account_number', 'code', true],
    ['Plan id', 'plan_id', 'code', true]
  ],
  transfers: [
    ['Reference', 'reference', 'code', true],
    ['Service reference', 'service_reference', 'code', true],
    ['Status', 'status_raw', 'status'],
    ['Amount', ['amount_minor', 'amount_raw', 'currency'], 'money'],
    ['Beneficiary', 'account_name', 'text'],
    ['Account number', 'account_number', 'code', true],
    ['Bank', 'bank_name', 'text'],
    ['Bank code', 'bank_code', 'code', true],
    ['Narration', 'narration', 'text'],
    ['Mode', 'transfer_mode', 'word'],
    ['Bulk file', 'bulk_file_id', 'code', true]
  ],
  plans: [
    ['Plan id', 'id', 'code', true],
    ['Title', 'title', 'text'],
    ['Status', 'status_raw', 'status'],
    ['Amount', ['amount_minor', 'amount_raw', 'currency'], 'money'],
    ['Frequency', 'frequency', 'word'],
    ['Internal reference', 'internal_reference', 'code', true],
    ['Created', 'created_at', 'date']
  ],
  subscriptions: [
    ['Subscription id', 'id', 'code', true],
    ['Status', 'status_raw', 'status'],
    ['Customer', 'customer_name', 'text'],
    ['Email', 'customer_email', 'text', true],
    ['Customer id', 'customer_id', 'code', true],
    ['Plan id', 'plan_id', 'code', true],
    ['Amount', ['amount_minor', 'amount_raw', 'currency'], 'money'],
    ['Started', 'start_date', 'text'],
    ['Next payment', 'next_payment_date', 'text'],
    ['Created', 'created_at', 'date']
  ],
  virtual_accounts: [
    ['Account number', 'account_number', 'code', true],
    ['Account name', 'account_name', 'text'],
    ['Bank', 'bank_name', 'text'],
    ['State', 'lifecycle', 'status'],
    ['Amount', ['amount_minor', 'amount_raw', 'currency'], 'money'],
    ['Created', 'created_at', 'date'],
    ['Expires', 'expires_at', 'date'],
    ['Id', 'id', 'code', true]
  ],
  banks: [
    ['Bank', 'bank_name', 'text'],
    ['Bank code', 'bank_code', 'code', true],
    ['Currency', 'currency', 'text'],
    ['NIP code', 'nip_code', 'code', true],
    ['CBN code', 'cbn_code', 'code', true]
  ]
}

const TABLE_KEY: Record<RecordResource, { table: string; where: string }> = {
  payments: { table: 'payments', where: 'id = @key' },
  transfers: { table: 'transfers', where: 'reference = @key' },
  plans: { table: 'plans', where: 'id = @key' },
  subscriptions: { table: 'subscriptions', where: 'id = @key' },
  virtual_accounts: { table: 'virtual_accounts', where: 'id = @key' },
  banks: { table: 'banks', where: "currency || ':' || bank_code = @key" }
}

/** The cached row of a record, or a clear "not in the cache" error. */
export function recordRow(db: Database.Database, profileId: string, resource: RecordResource, key: string): Row {
  const t = TABLE_KEY[resource]
  const row = db.prepare(`select * from ${t.table} where profile_id = @profile and ${t.where}`).get({ profile: profileId, key }) as
    Row | undefined
  if (!row)
    throw new AppError(
      'record_not_found',
      `${RESOURCE_NAMES[resource].one} "${key.slice(0, 80)}" is not in this profile's cache; sync, or check the profile in use.`
    )
  return row
}

/**
 * How a record is shown in a list (its drawer's relations, Ctrl+K): key, label, its amount and currency and its status
 * (written as every screen writes them, by `listed`), and the rest of its line of detail, selected over `t`.
 */
export const RECORD_LINES: Record<RecordResource, string> = {
  payments:
    "t.id as key, coalesce(t.reference, t.id) as label, t.amount_raw as amount, t.currency as currency, t.status_raw as status, coalesce(t.customer_name, t.customer_email, '') || ' · ' || substr(t.created_at, 1, 10) as detail",
  transfers:
    "t.reference as key, t.reference as label, t.amount_raw as amount, t.currency as currency, t.status_raw as status, coalesce(t.account_name, t.account_number, '') as detail",
  subscriptions:
    "t.id as key, coalesce(t.customer_name, t.customer_email, t.id) as label, null as amount, null as currency, t.status_raw as status, coalesce(t.customer_email, '') as detail",
  plans:
    "t.id as key, t.title as label, t.amount_raw as amount, t.currency as currency, t.status_raw as status, coalesce(t.frequency, '') as detail",
  virtual_accounts:
    "t.id as key, t.account_number as label, null as amount, null as currency, null as status, coalesce(t.account_name, '') || ' · ' || coalesce(t.bank_name, '') as detail",
  banks:
    "t.currency || ':' || t.bank_code as key, t.bank_name as label, null as amount, null as currency, null as status, t.currency || ' · ' || t.bank_code as detail"
}

export type LineRow = {
  key: string
  label: string | null
  amount: string | null
  currency: string | null
  status: string | null
  detail: string | null
}

/** Rows selected with RECORD_LINES, as the list entries the screens show: amount · detail · status, each in its one form. */
export const listed = (resource: RecordResource, rows: readonly LineRow[]): RelatedRecord[] =>
  rows.map((r) => ({
    resource,
    key: r.key,
    label: r.label ?? r.key,
    detail: [
      r.amount !== null && r.currency !== null ? formatMajor(r.amount, r.currency) : null,
      ...(r.detail ?? '').split(' · ').map((part) => (resource === 'plans' ? inWords(part) : part)),
      r.status !== null ? inWords(r.status) : null
    ]
      .filter((part): part is string => part !== null && part !== '')
      .join(' · ')
  }))

/** Related records of one table (`rest`: the WHERE and ORDER BY over it), each as its list line: at most RELATED_LIMIT, with how many there are. */
function related(db: Database.Database, label: string, resource: RecordResource, rest: string, params: Row): Relation {
  const sql = `select ${RECORD_LINES[resource]} from ${resource} t ${rest}`
  const rows = db.prepare(`${sql} limit ${RELATED_LIMIT + 1}`).all(params) as LineRow[]
  const records = listed(resource, rows.slice(0, RELATED_LIMIT))
  let total = records.length
  if (rows.length > RELATED_LIMIT) {
    const counted = db.prepare(`select count(*) as n from (${sql})`).get(params) as { n: number }
    total = counted.n
  }
  return { label, resource, records, total }
}

function relationsOf(db: Database.Database, profileId: string, resource: RecordResource, row: Row): Relation[] {
  const p = { profile: profileId, ...row }
  const list: Relation[] = []
  const nonEmpty = (r: Relation): void => {
    if (r.total > 0) list.push(r)
  }
  switch (resource) {
    case 'payments': {
      if (row['plan_id']) {
        nonEmpty(related(db, 'Plan', 'plans', `where profile_id = @profile and id = @plan_id`, p))
        if (row['customer_email'])
          nonEmpty(
            related(
              db,
              'Subscription',
              'subscriptions',
              `where profile_id = @profile and plan_id = @plan_id and customer_email = @customer_email order by created_at_ms desc`,
              p
            )
          )
      }
      const accountId = jsonField(row, 'metadata', 'virtualAccountId')
      if (row['account_number'] || accountId)
        nonEmpty(
          related(
            db,
            'Virtual account',
            'virtual_accounts',
            `where profile_id = @profile and (account_number = @account_number or id = @va)`,
            { ...p, va: accountId }
          )
        )
      break
    }
    case 'subscriptions':
      if (row['plan_id']) {
        nonEmpty(related(db, 'Plan', 'plans', `where profile_id = @profile and id = @plan_id`, p))
        if (row['customer_email'])
          list.push(
            related(
              db,
              'Payments',
              'payments',
              `where profile_id = @profile and plan_id = @plan_id and customer_email = @customer_email order by seq desc`,
              p
            )
          )
      }
      break
    case 'plans':
      list.push(related(db, 'Subscribers', 'subscriptions', `where profile_id = @profile and plan_id = @id order by created_at_ms desc`, p))
      list.push(related(db, 'Payments', 'payments', `where profile_id = @profile and plan_id = @id order by seq desc`, p))
      break
    case 'virtual_accounts':
      list.push(
        related(db, 'Payments into it', 'payments', `where profile_id = @profile and account_number = @account_number order by seq desc`, p)
      )
      break
    case 'transfers':
      if (row['bulk_file_id'])
        list.push(
          related(
            db,
            `Bulk file ${String(row['bulk_file_id'])}`,
            'transfers',
            `where profile_id = @profile and bulk_file_id = @bulk_file_id order by rowid`,
            p
          )
        )
      break
    case 'banks':
      break
  }
  return list
}

function jsonField(row: Row, ...path: string[]): string | null {
  try {
    let value: unknown = JSON.parse(String(row['raw'] ?? 'null'))
    for (const step of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined
    return typeof value === 'string' ? value : null
  } catch {
    return null
  }
}

/** Whether the virtual account's time has passed. */
export const accountExpired = (row: Row, now = Date.now()): boolean => {
  const at = Date.parse(String(row['expires_at'] ?? ''))
  return String(row['lifecycle'] ?? '').toLowerCase() === 'expired' || (!Number.isNaN(at) && at <= now)
}

export function actionsFor(profile: Profile, resource: RecordResource, row: Row, simulatorUrl: string | null): RecordActions {
  const none: RecordActions = { authorize: false, authorizeStep: null, cancelPlan: false, fund: false, fundUnavailable: null }
  // Only a payment still pending can take an authorization step.
  if (resource === 'payments')
    return {
      ...none,
      authorize: row['is_final'] === 0,
      authorizeStep: row['is_final'] === 0 ? jsonField(row, 'authorization', 'mode') || null : null
    }
  if (resource === 'plans') return { ...none, cancelPlan: !['cancelled', 'archived', 'inactive'].includes(String(row['status'])) }
  if (resource !== 'virtual_accounts') return none
  const why =
    profile.mode !== 'test'
      ? 'Funds can only be simulated in test mode.'
      : accountExpired(row)
        ? 'This account has expired.'
        : !profile.builtIn && !simulatorUrl
          ? "Set the provider's funds simulator address for this profile (Profiles) to fund test accounts."
          : null
  return { ...none, fund: why === null, fundUnavailable: why }
}

function titleOf(resource: RecordResource, row: Row): { title: string; subtitle: string } {
  const s = (k: string): string => str(row[k]) ?? ''
  /** The record's amount as every screen writes amounts ("NGN 1,250.50"). */
  const amount = (): string => formatMajor(s('amount_raw'), s('currency'))
  switch (resource) {
    case 'payments':
      return { title: s('reference') || s('id'), subtitle: `${amount()} · ${inWords(s('status_raw'))}` }
    case 'transfers':
      return {
        title: s('reference'),
        subtitle: `${amount()} to ${s('account_name') || s('account_number')} · ${inWords(s('status_raw'))}`
      }
    case 'plans':
      return { title: s('title'), subtitle: `${amount()} · ${inWords(s('frequency'))} · ${inWords(s('status_raw'))}` }
    case 'subscriptions':
      return {
        title: s('customer_name') || s('customer_email') || s('id'),
        subtitle: `${inWords(s('status_raw'))} · ${s('customer_email')}`
      }
    case 'virtual_accounts':
      return { title: s('account_number'), subtitle: `${s('account_name')} · ${s('bank_name')}` }
    case 'banks':
      return { title: s('bank_name'), subtitle: `${s('currency')} · ${s('bank_code')}` }
  }
}

/** The raw JSON, indented; stored text that is not JSON is shown as it is. */
function indented(raw: unknown): string {
  try {
    return JSON.stringify(JSON.parse(String(raw)), null, 2)
  } catch {
    return String(raw ?? '')
  }
}

export function recordDetail(
  db: Database.Database,
  profile: Profile,
  resource: RecordResource,
  key: string,
  simulatorUrl: string | null
): RecordDetail {
  const row = recordRow(db, profile.id, resource, key)
  const fields: DetailField[] = FIELDS[resource].map(([label, source, kind, copy]) => ({
    label,
    kind,
    value: typeof source === 'string' ? (str(row[source]) as Cell) : moneyOf(row, ...source),
    ...(copy ? { copy: true } : {})
  }))
  return {
    resource,
    key,
    ...titleOf(resource, row),
    fields,
    raw: indented(row['raw']),
    relations: relationsOf(db, profile.id, resource, row),
    recon: resource === 'payments' || resource === 'transfers' ? placementsOfRecord(db, profile.id, key) : [],
    actions: actionsFor(profile, resource, row, simulatorUrl)
  }
}
