// Dynamic virtual accounts: the cached ones for the profile, and creating one with the provider (cached at once, refreshed by sync).
import type Database from 'better-sqlite3'
import type { VirtualAccountSummary } from '../../shared/ipc/contract'
import { parseMajor, toMajorString } from '../../shared/money'
import type { ApiClient } from '../api/client'
import { createdVirtualAccountRow } from '../cache/api-rows'
import type { CacheStore } from '../cache/store'
import { AppError } from '../errors'

export interface NewVirtualAccount {
  currency: 'NGN' | 'GHS'
  accountName: string
  /** Major units as typed, e.g. "5000.00". */
  amount: string
  expiresIn?: number | undefined
}

export function listVirtualAccounts(db: Database.Database, profileId: string): VirtualAccountSummary[] {
  return db
    .prepare(
      `select id, account_number as accountNumber, account_name as accountName, bank_name as bankName, lifecycle, expires_at as expiresAt,
              amount_raw as amountRaw, currency
       from virtual_accounts where profile_id = ? order by expires_at desc, id`
    )
    .all(profileId) as VirtualAccountSummary[]
}

/** The amount in minor units, checked against the currency's decimals before the provider sees it. */
export function checkVirtualAccountAmount(input: NewVirtualAccount): number {
  let minor: number
  try {
    minor = parseMajor(input.amount, input.currency)
  } catch (error) {
    throw new AppError('invalid_amount', `Amount: ${error instanceof Error ? error.message : String(error)}`, { field: 'amount' })
  }
  if (minor <= 0) throw new AppError('invalid_amount', 'Amount: it must be more than zero.', { field: 'amount' })
  return minor
}

/** Creates the account with the provider and caches it, so each sync refreshes it by id. */
export async function createVirtualAccount(
  client: ApiClient,
  store: CacheStore,
  profileId: string,
  input: NewVirtualAccount,
  now: () => number = Date.now
): Promise<VirtualAccountSummary> {
  const minor = checkVirtualAccountAmount(input)
  const amount = toMajorString(minor, input.currency)
  const requestedAt = now()
  const account = await client.createVirtualAccount({
    currency: input.currency,
    accountName: input.accountName,
    // The API takes major units as a JSON number; NGN and GHS have two decimals, well within a double's exact range.
    amount: Number(amount),
    ...(input.expiresIn !== undefined ? { expiresIn: input.expiresIn } : {})
  })
  // The response does not carry amount or currency (spec 2.1): they are kept from the request.
  store.writePage(profileId, 'virtual_accounts', [
    createdVirtualAccountRow(account, { amount, currency: input.currency, expiresIn: input.expiresIn }, requestedAt)
  ])
  const created = listVirtualAccounts(store.db, profileId).find((a) => a.id === account.id)
  if (!created) throw new AppError('internal', 'The new virtual account was not saved.')
  return created
}
