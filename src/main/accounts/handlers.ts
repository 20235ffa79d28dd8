// accounts:* calls: the cached virtual accounts of the profile in use, and creating one (confirmed by main in live mode).
import { toMajorString } from '../../shared/money'
import { notConfirmed } from '../errors'
import type Database from 'better-sqlite3'
import type { CacheStore } from '../cache/store'
import type { MainUi } from '../ipc/questions'
import type { Logger } from '../log'
import type { ActiveProfile } from '../profiles/active'
import type { ClientPool } from '../profiles/clients'
import type { HandlerMap } from '../ipc/router'
import { checkVirtualAccountAmount, createVirtualAccount, listVirtualAccounts } from './service'

/** What the accounts calls use, wired by the host. */
export interface AccountServices {
  db: Database.Database
  store: CacheStore
  active: ActiveProfile
  clients: ClientPool
  ui: Pick<MainUi, 'confirm'>
  log: Logger
}

export function accountHandlers(ctx: AccountServices): HandlerMap {
  return {
    'accounts:list': () => listVirtualAccounts(ctx.db, ctx.active.current().id),
    'accounts:create': async (input) => {
      const profile = ctx.active.current()
      if (profile.mode === 'live') {
        const minor = checkVirtualAccountAmount(input)
        const yes = await ctx.ui.confirm({
          title: 'Create a live virtual account?',
          message: `Create a LIVE virtual account "${input.accountName}" for ${input.currency} ${toMajorString(minor, input.currency)} in "${profile.name}"?`,
          detail: `Customers can pay real money into it for the next ${input.expiresIn ?? 30} minutes.`,
          confirmLabel: 'Create account'
        })
        if (!yes) throw notConfirmed('Creating the virtual account')
      }
      const created = await createVirtualAccount(await ctx.clients.for(profile), ctx.store, profile.id, input)
      ctx.log.info(`virtual account ${created.id} created in "${profile.name}" (${input.currency})`)
      return created
    }
  }
}
