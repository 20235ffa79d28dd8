// Composes every domain's handlers into the one router; Electron and the test bridge both call this.
import { calls } from '../../shared/ipc/contract'
import { appInfoHandlers, type AppEnvironment } from './info'
import { profileHandlers } from '../profiles/builtin'
import { createRouter, type CallSender, type Router } from '../ipc/router'

export interface AppRouterOptions {
  env: AppEnvironment
  isTrustedSender: (sender: CallSender) => boolean
  logError: (message: string) => void
}

export function createAppRouter(options: AppRouterOptions): Router {
  return createRouter({
    contract: calls,
    domains: [appInfoHandlers(options.env), profileHandlers()],
    isTrustedSender: options.isTrustedSender,
    logError: options.logError
  })
}
