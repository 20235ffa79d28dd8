// search:query: offline search of the profile in use's cache.
import type { HostContext } from '../host/context'
import type { HandlerMap } from '../ipc/router'
import { search } from './search'

export function searchHandlers(ctx: Pick<HostContext, 'db' | 'active'>): HandlerMap {
  return {
    'search:query': (query) => search(ctx.db, ctx.active.current().id, query)
  }
}
