// records:* calls: the workspace's tables, drawer and Ctrl+K over the profile in use's cache, and the drawer's actions (confirmed by main in a live profile).
import { notConfirmed } from '../errors'
import type Database from 'better-sqlite3'
import type { CacheStore } from '../cache/store'
import type { MainUi } from '../ipc/questions'
import type { Logger } from '../log'
import type { ActiveProfile } from '../profiles/active'
import type { ClientPool } from '../profiles/clients'
import type { HandlerMap } from '../ipc/router'
import { authorizePayment, cancelPlan, fundVirtualAccount } from './actions'
import { recordDetail, recordRow } from './detail'
import { findRecords } from './find'
import { recordRows, recordTotals } from './table'

/** What the records calls use, wired by the host. */
export interface RecordServices {
  db: Database.Database
  store: CacheStore
  active: ActiveProfile
  clients: ClientPool
  ui: Pick<MainUi, 'confirm'>
  log: Logger
}

export function recordHandlers(ctx: RecordServices): HandlerMap {
  const live = async (title: string, message: string, detail: string, confirmLabel: string, what: string): Promise<void> => {
    if (ctx.active.current().mode !== 'live') return
    if (!(await ctx.ui.confirm({ title, message, detail, confirmLabel }))) throw notConfirmed(what)
  }
  return {
    'records:rows': ({ query, offset, limit, anchor, total }) => {
      const profile = ctx.active.current()
      return recordRows(ctx.db, profile.id, query, { offset, limit, anchor, total }, profile.timeZone)
    },
    'records:totals': ({ query }) => {
      const profile = ctx.active.current()
      return recordTotals(ctx.db, profile.id, query, profile.timeZone)
    },
    'records:detail': ({ resource, key }) => {
      const profile = ctx.active.current()
      return recordDetail(ctx.db, profile, resource, key, profile.fundsSimulatorUrl)
    },
    'records:find': ({ text }) => findRecords(ctx.db, ctx.active.current().id, text),
    'records:bulkFiles': () =>
      ctx.db
        .prepare(
          `select id, (select count(*) from transfers t where t.profile_id = @profile and t.bulk_file_id = x.id) as transfers
           from (select id from bulk_files where profile_id = @profile union select distinct bulk_file_id from transfers where profile_id = @profile and bulk_file_id is not null) x
           order by id`
        )
        .all({ profile: ctx.active.current().id }) as { id: string; transfers: number }[],
    'records:authorize': async (request) => {
      const profile = ctx.active.current()
      const row = recordRow(ctx.db, profile.id, 'payments', request.paymentId)
      await live(
        'Authorize a live payment?',
        `Send the ${request.pin !== undefined ? 'PIN' : 'OTP'} for LIVE payment ${String(row['reference'] ?? row['id'])} (${String(row['amount_raw'])} ${String(row['currency'])}) in "${profile.name}"?`,
        'The provider moves real money when the payment is authorized.',
        'Authorize payment',
        'Authorizing the payment'
      )
      const outcome = await authorizePayment(await ctx.clients.for(profile), ctx.store, profile, request)
      ctx.log.info(`payment ${request.paymentId} authorization step sent in "${profile.name}": ${outcome.status}`)
      return outcome
    },
    'records:cancelPlan': async ({ planId }) => {
      const profile = ctx.active.current()
      const row = recordRow(ctx.db, profile.id, 'plans', planId)
      await live(
        'Cancel a live plan?',
        `Cancel LIVE plan "${String(row['title'])}" (${String(row['amount_raw'])} ${String(row['currency'])}) in "${profile.name}"?`,
        'Its subscribers are no longer charged. The provider cannot undo a cancellation.',
        'Cancel plan',
        'Cancelling the plan'
      )
      const outcome = await cancelPlan(await ctx.clients.for(profile), ctx.store, profile, planId)
      ctx.log.info(`plan ${planId} cancelled in "${profile.name}": ${outcome.status}`)
      return outcome
    },
    'records:fund': async ({ accountId, amount }) => {
      const profile = ctx.active.current()
      const outcome = await fundVirtualAccount(await ctx.clients.simulatorFor(profile), ctx.store, profile, accountId, amount)
      ctx.log.info(`test virtual account ${accountId} funded in "${profile.name}"`)
      return outcome
    }
  }
}
