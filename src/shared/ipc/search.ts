// The search domain of the IPC contract: offline search of the cache by text and filters, a page at a time.
import { z } from 'zod'
import { MAX_PAGE_SIZE, SEARCH_RESOURCES, SEARCH_SORTS, type SearchResult } from '../search'
import { call } from './define'

/** What a search narrows by: the export and the record tables take the same. */
export const searchFilters = {
  resource: z.enum(SEARCH_RESOURCES),
  text: z.string().max(500).optional(),
  status: z.string().max(40).optional(),
  channel: z.string().max(40).optional(),
  currency: z
    .string()
    .length(3)
    .regex(/^[A-Za-z]{3}$/)
    .optional(),
  minAmount: z.string().max(30).optional(),
  maxAmount: z.string().max(30).optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  sort: z.enum(SEARCH_SORTS).optional(),
  bulkFile: z.string().max(200).optional()
}

export const searchCalls = {
  'search:query': call<SearchResult>()(
    z.strictObject({
      ...searchFilters,
      page: z.number().int().min(0).max(10_000_000).optional(),
      pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
      after: z.string().min(1).max(2_000).optional(),
      before: z.string().min(1).max(2_000).optional()
    })
  )
} as const
