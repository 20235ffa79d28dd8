// The record workspace's vocabulary, shared by the host and the screens: which tables there are, their columns, and what a page, a record and a search return.
import type { SearchQuery } from './search'

export const RECORD_RESOURCES = ['payments', 'transfers', 'plans', 'subscriptions', 'virtual_accounts', 'banks'] as const
export type RecordResource = (typeof RECORD_RESOURCES)[number]

export const RESOURCE_NAMES: Record<RecordResource, { one: string; many: string }> = {
  payments: { one: 'Payment', many: 'Payments' },
  transfers: { one: 'Transfer', many: 'Transfers' },
  plans: { one: 'Plan', many: 'Plans' },
  subscriptions: { one: 'Subscription', many: 'Subscriptions' },
  virtual_accounts: { one: 'Virtual account', many: 'Virtual accounts' },
  banks: { one: 'Bank', many: 'Banks' }
}

/** How a cell is shown: money with its currency, a date in the business time zone, a status tag, an identifier in monospace, or text. */
/** How a column is shown: 'status' and 'word' are the provider's codes (FAILED, bank_transfer), shown as words. */
export type ColumnKind = 'text' | 'code' | 'money' | 'date' | 'status' | 'word' | 'number'

export interface ColumnInfo {
  id: string
  label: string
  kind: ColumnKind
  /** Sorted in SQLite from an index (a click on the header), so a million rows sort as fast as ten. */
  sortable: boolean
  /** Shown until the user chooses otherwise. */
  shown: boolean
  /** Width in pixels. */
  width: number
}

const col = (
  id: string,
  label: string,
  kind: ColumnKind,
  width: number,
  options: { sortable?: boolean; hidden?: boolean } = {}
): ColumnInfo => ({
  id,
  label,
  kind,
  width,
  sortable: options.sortable === true,
  shown: options.hidden !== true
})

/** Every table's columns, in their default order. The first sortable one is the default sort (newest first for dates). */
export const RECORD_COLUMNS: Record<RecordResource, readonly ColumnInfo[]> = {
  payments: [
    col('created', 'Date', 'date', 150, { sortable: true }),
    col('reference', 'Reference', 'code', 120, { sortable: true }),
    col('customer', 'Customer', 'text', 180),
    col('amount', 'Amount', 'money', 150, { sortable: true }),
    col('fees', 'Fees', 'money', 100),
    col('channel', 'Channel', 'word', 90),
    col('status', 'Status', 'status', 90, { sortable: true }),
    col('service_reference', 'Service reference', 'code', 170, { hidden: true }),
    col('email', 'Email', 'text', 200, { hidden: true }),
    col('account_number', 'Account / phone', 'code', 140, { hidden: true }),
    col('tax', 'Tax', 'money', 110, { hidden: true }),
    col('local_amount', 'Local amount', 'money', 150, { hidden: true }),
    col('total_local', 'Total local amount', 'money', 150, { hidden: true }),
    col('rate', 'FX rate', 'number', 90, { hidden: true }),
    col('region', 'Region', 'text', 80, { hidden: true }),
    col('plan', 'Plan', 'text', 160, { hidden: true }),
    col('id', 'Payment id', 'code', 280, { hidden: true })
  ],
  transfers: [
    col('reference', 'Reference', 'code', 120, { sortable: true }),
    col('account_name', 'Beneficiary', 'text', 180),
    col('account_number', 'Account', 'code', 120),
    col('bank', 'Bank', 'text', 160),
    col('amount', 'Amount', 'money', 150, { sortable: true }),
    col('status', 'Status', 'status', 90, { sortable: true }),
    col('bulk_file', 'Bulk file', 'code', 150),
    col('narration', 'Narration', 'text', 180, { hidden: true }),
    col('service_reference', 'Service reference', 'code', 170, { hidden: true }),
    col('mode', 'Mode', 'word', 80, { hidden: true }),
    col('bank_code', 'Bank code', 'code', 90, { hidden: true })
  ],
  plans: [
    col('created', 'Created', 'date', 150, { sortable: true }),
    col('title', 'Title', 'text', 220, { sortable: true }),
    col('frequency', 'Frequency', 'word', 110),
    col('amount', 'Amount', 'money', 150, { sortable: true }),
    col('status', 'Status', 'status', 90, { sortable: true }),
    col('internal_reference', 'Internal reference', 'code', 170),
    col('subscribers', 'Subscribers', 'number', 100, { hidden: true }),
    col('id', 'Plan id', 'code', 280, { hidden: true })
  ],
  subscriptions: [
    col('created', 'Created', 'date', 150, { sortable: true }),
    col('customer', 'Customer', 'text', 180, { sortable: true }),
    col('email', 'Email', 'text', 200),
    col('plan', 'Plan', 'text', 180),
    col('amount', 'Amount', 'money', 150, { sortable: true }),
    col('status', 'Status', 'status', 90, { sortable: true }),
    col('next_payment', 'Next payment', 'date', 150),
    col('start', 'Started', 'date', 150, { hidden: true }),
    col('customer_id', 'Customer id', 'code', 280, { hidden: true }),
    col('id', 'Subscription id', 'code', 280, { hidden: true })
  ],
  virtual_accounts: [
    col('created', 'Created', 'date', 150, { sortable: true }),
    col('account_number', 'Account number', 'code', 140, { sortable: true }),
    col('account_name', 'Account name', 'text', 220, { sortable: true }),
    col('bank', 'Bank', 'text', 160),
    col('amount', 'Amount', 'money', 150, { sortable: true }),
    col('state', 'State', 'status', 90),
    col('expires', 'Expires', 'date', 150, { sortable: true }),
    col('id', 'Id', 'code', 280, { hidden: true })
  ],
  banks: [
    col('name', 'Bank', 'text', 260, { sortable: true }),
    col('code', 'Bank code', 'code', 110, { sortable: true }),
    col('currency', 'Currency', 'text', 90, { sortable: true }),
    col('nip_code', 'NIP code', 'code', 110),
    col('cbn_code', 'CBN code', 'code', 110)
  ]
}

/** A table's sort when none is chosen: its first sortable column, newest first for a date, A to Z otherwise. */
export function defaultSort(resource: RecordResource): RecordSort {
  const first = RECORD_COLUMNS[resource].find((c) => c.sortable)
  if (!first) throw new Error(`${resource} has no sortable column`)
  return { column: first.id, desc: first.kind === 'date' }
}

/** An amount: exact minor units when the value converted exactly, and always the value as sent. */
export interface MoneyCell {
  minor: number | null
  raw: string | null
  currency: string | null
}
export type Cell = string | number | null | MoneyCell

export const isMoneyCell = (cell: Cell | undefined): cell is MoneyCell => typeof cell === 'object' && cell !== null

export interface RecordRow {
  /** The record's key in its table: a payment's id, a transfer's reference, a bank's currency:code. */
  key: string
  cells: Record<string, Cell>
}

export interface RecordSort {
  column: string
  desc: boolean
}

/** A table's filters, the same ones the cache search has (a transfer's bulk file included), over any table, sorted by a column. */
export type RecordQuery = Omit<SearchQuery, 'resource' | 'sort' | 'page' | 'pageSize' | 'after' | 'before'> & {
  resource: RecordResource
  sort?: RecordSort
}

/** A cursor that starts the row at `offset`: a page after it is read by keyset, not by counting rows. */
export interface RowAnchor {
  offset: number
  cursor: string
}

export interface RowsResult {
  offset: number
  rows: RecordRow[]
  /** The anchor of the row after the last one given (null at the end). */
  next: RowAnchor | null
}

export interface CurrencyTotal {
  currency: string | null
  count: number
  /** The sum in minor units, or null when it is past exact integers or a record's amount could not be converted. */
  sumMinor: number | null
}

export interface RecordTotals {
  /** Every match, counted exactly. */
  total: number
  byCurrency: CurrencyTotal[]
}

export interface DetailField {
  label: string
  value: Cell
  kind: ColumnKind
  /** A reference or an account number: shown with a copy button. */
  copy?: boolean
}

export interface RelatedRecord {
  resource: RecordResource
  key: string
  label: string
  detail: string
}

export interface Relation {
  label: string
  resource: RecordResource
  /** At most RELATED_LIMIT of them, newest first. */
  records: RelatedRecord[]
  total: number
}

export const RELATED_LIMIT = 20

export interface ReconPlacement {
  sessionId: string
  sessionName: string
  closed: boolean
  outcome: string
  itemKey: string
}

/** What an action in the drawer can do with this record, as the host sees it now. */
export interface RecordActions {
  authorize: boolean
  /** The step a pending payment waits for as the provider last said (pin, otp, 3DS, avs, enroll); PIN and OTP can be sent from here. */
  authorizeStep: string | null
  cancelPlan: boolean
  fund: boolean
  /** Why funding is not offered (live profile, expired account, no simulator configured), when it is not. */
  fundUnavailable: string | null
}

export interface RecordDetail {
  resource: RecordResource
  key: string
  title: string
  subtitle: string
  fields: DetailField[]
  /** The record's JSON as the provider sent it (amounts keep their literal digits), indented. */
  raw: string
  relations: Relation[]
  recon: ReconPlacement[]
  actions: RecordActions
}

export interface FoundGroup {
  resource: RecordResource
  records: RelatedRecord[]
  /** More matched than are shown. */
  more: boolean
}

export const FIND_LIMIT = 6
