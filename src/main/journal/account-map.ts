// The account map: which ledger account each kind of journal line posts to, saved per profile (a code of the user's chart of accounts, never guessed from it).
import type Database from 'better-sqlite3'
import { AppError } from '../errors'
import { accountMapSchema, JOURNAL_ACCOUNTS, type AccountMap } from '../../shared/journal'

/** What a map holds until the user sets it: names in words, which a ledger that asks for codes refuses until they are set. */
export const DEFAULT_MAP: AccountMap = {
  accounts: {
    fees: 'Payment processing fees',
    bank_charges: 'Bank charges',
    vat: 'VAT on bank charges',
    levies: 'Levies',
    stamp_duty: 'Stamp duty',
    adjustments: 'Reconciliation adjustments',
    clearing: 'Payment provider clearing',
    bank: 'Bank'
  },
  taxRate: 'Tax Exempt'
}

/** The account maps of a cache's profiles. */
export class AccountMaps {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => Date = () => new Date()
  ) {}

  /** The profile's map, or the default while it has none. */
  get(profileId: string): { map: AccountMap; saved: boolean } {
    const json = this.db.prepare('select map from journal_account_maps where profile_id = ?').pluck().get(profileId) as string | undefined
    return json === undefined ? { map: DEFAULT_MAP, saved: false } : { map: accountMapSchema.parse(JSON.parse(json)), saved: true }
  }

  /** Sets some of the profile's accounts (and the tax rate): the rest stay as they were. */
  set(profileId: string, changes: { accounts?: Partial<Record<string, string>>; taxRate?: string }): AccountMap {
    const unknown = Object.keys(changes.accounts ?? {}).filter((k) => !(k in JOURNAL_ACCOUNTS))
    if (unknown.length > 0)
      throw new AppError(
        'invalid_account_map',
        `The account map has no ${unknown.map((k) => `"${k}"`).join(', ')}: its accounts are ${Object.keys(JOURNAL_ACCOUNTS).join(', ')}.`
      )
    const { map } = this.get(profileId)
    const next = accountMapSchema.safeParse({
      accounts: { ...map.accounts, ...changes.accounts },
      taxRate: changes.taxRate ?? map.taxRate
    })
    if (!next.success)
      throw new AppError('invalid_account_map', 'Each account of the map is a code or name of 1 to 100 characters, and so is the tax rate.')
    this.db
      .prepare(
        `insert into journal_account_maps (profile_id, map, updated_at) values (?, ?, ?)
         on conflict (profile_id) do update set map = excluded.map, updated_at = excluded.updated_at`
      )
      .run(profileId, JSON.stringify(next.data), this.now().toISOString())
    return next.data
  }
}
