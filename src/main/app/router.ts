// Composes every domain's handlers into the one router; Electron and the test bridge both call this.
import { calls } from '../../shared/ipc/contract'
import { createRouter, type CallSender, type Router } from '../ipc/router'
import { appInfoHandlers, type AppEnvironment } from './info'
import type { AppServices } from './services'

export interface AppRouterOptions {
  env: AppEnvironment
  services: AppServices
  isTrustedSender: (sender: CallSender) => boolean
  logError: (message: string) => void
}

export function createAppRouter(options: AppRouterOptions): Router {
  return createRouter({
    contract: calls,
    domains: [appInfoHandlers(options.env), options.services.handlers()],
    isTrustedSender: options.isTrustedSender,
    logError: options.logError
  })
}
