// search:query: offline search of the profile in use's cache.
import type { HostContext } from '../host/context'
import type { HandlerMap } from '../ipc/router'
import { search } from './search'

export function searchHandlers(ctx: Pick<HostContext, 'db' | 'active'>): HandlerMap {
  return {
    'search:query': (query) => {
      const profile = ctx.active.current()
      return search(ctx.db, profile.id, query, { timeZone: profile.timeZone })
    }
  }
}
