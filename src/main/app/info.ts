// Answers app:info: what is running and where the app keeps its data, so users and support can find it.
import type { AppInfo } from '../../shared/ipc/contract'
import { sqliteVersion, type SqliteOptions } from '../cache/sqlite'
import type { HandlerMap } from '../ipc/router'

export interface AppEnvironment {
  name: string
  version: string
  electronVersion: string | null
  chromeVersion: string | null
  paths: AppInfo['paths']
  sqlite: SqliteOptions
}

export function appInfoHandlers(env: AppEnvironment): HandlerMap {
  let sqlite: string | undefined
  return {
    'app:info': () => {
      sqlite ??= sqliteVersion(env.sqlite)
      return {
        name: env.name,
        version: env.version,
        runtime: { node: process.versions.node, electron: env.electronVersion, chrome: env.chromeVersion, sqlite },
        platform: `${process.platform}-${process.arch}`,
        paths: { ...env.paths }
      }
    }
  }
}
