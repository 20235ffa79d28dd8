// app:info: what is running and where the app keeps its data, so users and support can find it.
import type { AppInfo } from '../../shared/ipc/contract'
import { sqliteVersion } from '../cache/sqlite'
import type { HostContext } from '../host/context'
import type { HandlerMap } from '../ipc/router'

export function appHandlers(ctx: Pick<HostContext, 'config'>): HandlerMap {
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
