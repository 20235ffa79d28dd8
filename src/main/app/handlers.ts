// app:info: what is running and where the app keeps its data, so users and support can find it.
import type { AppInfo } from '../../shared/ipc/contract'
import { sqliteVersion } from '../cache/sqlite'
import type { SqliteOptions } from '../cache/sqlite'
import type { HandlerMap } from '../ipc/router'

/** What app:info tells: the app's name and runtime, and where it keeps its data (part of the host's start-up config). */
export interface AppFacts {
  app: { name: string; version: string; electronVersion: string | null; chromeVersion: string | null }
  paths: { userData: string; cacheDatabase: string; logs: string }
  sqlite: SqliteOptions
}

export function appHandlers(ctx: { config: AppFacts }): HandlerMap {
  let sqlite: string | undefined
  return {
    'app:info': (): AppInfo => {
      sqlite ??= sqliteVersion(ctx.config.sqlite)
      const { app, paths } = ctx.config
      return {
        name: app.name,
        version: app.version,
        runtime: { node: process.versions.node, electron: app.electronVersion, chrome: app.chromeVersion, sqlite },
        platform: `${process.platform}-${process.arch}`,
        paths: { ...paths }
      }
    }
  }
}
