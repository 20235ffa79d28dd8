// What a search asks and returns, shared by the CLI, the IPC contract and the renderer.

export const SEARCH_RESOURCES = ['payments', 'transfers', 'subscriptions', 'plans'] as const
export type SearchResource = (typeof SEARCH_RESOURCES)[number]
/** Amount sorts group by currency first: amounts in different currencies are never compared as one. */
export const SEARCH_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const
export type SearchSort = (typeof SEARCH_SORTS)[number]
export const MAX_PAGE_SIZE = 200

export interface SearchQuery {
  resource: SearchResource
  /** Free text: any characters; only letters and digits are searched, each as a word prefix. */
  text?: string
  status?: string
  channel?: string
  currency?: string
  /** Major-unit decimals in `currency` (required with either bound), e.g. "1000.00". */
  minAmount?: string
  maxAmount?: string
  /** ISO dates or date-times; a date alone covers that whole day in the profile's business time zone. */
  from?: string
  to?: string
  sort?: SearchSort
  /** Transfers of one bulk file; '' for single transfers. */
  bulkFile?: string
  /** The page's number as the caller counts it (shown back, e.g. "page 3"); paging itself goes by cursor. */
  page?: number
  pageSize?: number
  /** nextCursor of the page before: fetch the page after it. */
  after?: string
  /** previousCursor of the page after: fetch the page before it. */
  before?: string
}

export interface SearchItem {
  resource: SearchResource
  key: string
  reference: string | null
  name: string | null
  email: string | null
  amountMinor: number | null
  amountRaw: string | null
  currency: string | null
  status: string
  statusRaw: string
  channel: string | null
  date: string | null
}

/** Counting stops here: beyond it the total is shown as "1,000+". */
export const COUNT_LIMIT = 1_000

export interface SearchResult {
  items: SearchItem[]
  /** Matches, counted up to COUNT_LIMIT. */
  total: number
  /** True when there are more than COUNT_LIMIT matches. */
  totalCapped: boolean
  page: number
  pageSize: number
  /** Give as `after` for the next page; null on the last page. */
  nextCursor: string | null
  /** Give as `before` for the previous page; null on the first page. */
  previousCursor: string | null
}
