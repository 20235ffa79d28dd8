// search:query: offline search of the profile in use's cache.
import type Database from 'better-sqlite3'
import type { ActiveProfile } from '../profiles/active'
import type { HandlerMap } from '../ipc/router'
import { search } from './search'

export function searchHandlers(ctx: { db: Database.Database; active: ActiveProfile }): HandlerMap {
  return {
    'search:query': (query) => {
      const profile = ctx.active.current()
      return search(ctx.db, profile.id, query, { timeZone: profile.timeZone })
    }
  }
}
