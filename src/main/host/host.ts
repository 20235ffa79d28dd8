// The service host: every service runs here, off the window's process. Serves calls from main's gate over one port, pushes events, asks main to show dialogs.
import { calls } from '../../shared/ipc/contract'
import { accountHandlers } from '../accounts/handlers'
import { appHandlers } from '../app/handlers'
import { AppError } from '../errors'
import { bulkHandlers } from '../bulk/handlers'
import { exportHandlers } from '../export/handlers'
import { createEventEmitter } from '../ipc/events'
import { createDispatcher, type Dispatcher, type HandlerMap } from '../ipc/router'
import { jobHandlers } from '../jobs/handlers'
import { journalHandlers } from '../journal/handlers'
import { profileHandlers, startRemovalJob, type ProfileServices } from '../profiles/handlers'
import { reconHandlers } from '../reconcile/handlers'
import { ruleHandlers } from '../reconcile/rules/handlers'
import { backupHandlers } from '../cache/backup-handlers'
import { RECON_PROFILE_TABLES } from '../reconcile/sessions'
import { recordHandlers } from '../records/handlers'
import { redactDeep } from '../redact'
import { searchHandlers } from '../search/handlers'
import { syncHandlers } from '../sync/handlers'
import { teamHandlers } from '../team/handlers'
import { closeHostContext, createHostContext, type HostContext, type HostDeps } from './context'
import type { AskRequest, MainUi } from '../ipc/questions'
import { readToHost, type HostConfig, type HostPort } from './protocol'

/** The profile domain's services: the host's, and the tables of the domains above it that a profile's removal empties. */
const profileServices = (ctx: HostContext): ProfileServices => ({ ...ctx, domainTables: RECON_PROFILE_TABLES })

/** Every domain's handlers; the dispatcher refuses a call handled twice or not at all. */
export function domainHandlers(ctx: HostContext): HandlerMap[] {
  return [
    appHandlers(ctx),
    profileHandlers(profileServices(ctx)),
    syncHandlers(ctx),
    searchHandlers(ctx),
    recordHandlers(ctx),
    exportHandlers(ctx),
    accountHandlers(ctx),
    jobHandlers(ctx),
    reconHandlers({ ...ctx, shared: ctx.team }),
    journalHandlers(ctx),
    ruleHandlers({ ...ctx, workspaces: ctx.team }),
    bulkHandlers(ctx),
    teamHandlers(ctx),
    backupHandlers(ctx)
  ]
}

export function createHostDispatcher(ctx: HostContext): Dispatcher {
  return createDispatcher({ contract: calls, domains: domainHandlers(ctx), logError: (message) => ctx.log.error(message) })
}

/** Carries on removals the app did not finish (it was closed or killed while deleting a profile's records). */
export function resumeRemovals(ctx: HostContext): void {
  for (const profile of ctx.profiles.pendingRemovals()) startRemovalJob(profileServices(ctx), profile)
}

export interface ServeOptions extends Omit<HostDeps, 'events' | 'ui'> {
  /** Called once the host has shut down (main asked it to, or it could not start). */
  onExit?: (code: number) => void
}

/**
 * Serves the host over `port`: waits for main's init message, opens the cache and services, says
 * ready, then answers calls. Everything that leaves has every known key removed from its text.
 */
export function serveHost(port: HostPort, options: ServeOptions = {}): void {
  let ctx: HostContext | null = null
  let dispatcher: Dispatcher | null = null
  let nextAsk = 1
  const asks = new Map<number, (value: boolean | string | null) => void>()
  const post: HostPort['post'] = (message) => port.post(redactDeep(message))

  const ask = (request: AskRequest): Promise<boolean | string | null> =>
    new Promise((resolve) => {
      const id = nextAsk++
      asks.set(id, resolve)
      post({ type: 'ask', id, request })
    })
  const ui: MainUi = {
    confirm: async (request) => (await ask({ kind: 'confirm', ...request })) === true,
    chooseSaveFile: async (request) => {
      const answer = await ask({ kind: 'saveFile', ...request })
      return typeof answer === 'string' && answer !== '' ? answer : null
    },
    chooseOpenFile: async (request) => {
      const answer = await ask({ kind: 'openFile', ...request })
      return typeof answer === 'string' && answer !== '' ? answer : null
    }
  }

  const start = (config: HostConfig): void => {
    if (ctx) return
    try {
      const events = createEventEmitter((_channel, name, payload) => post({ type: 'event', name, payload }))
      ctx = createHostContext(config, { ...options, events, ui })
      dispatcher = createHostDispatcher(ctx)
      ctx.log.info(`service host ready (pid ${process.pid})`)
      resumeRemovals(ctx)
      // The team workspace connects in the background: the window never waits for a server.
      void ctx.team.start()
      // The day's backup, in the background (online: calls are answered while it copies).
      ctx.backups.start()
      post({ type: 'ready' })
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'host_start_failed'
      const message = error instanceof Error ? error.message : String(error)
      post({ type: 'fatal', code, message })
      options.onExit?.(1)
    }
  }

  const stop = async (): Promise<void> => {
    for (const resolve of asks.values()) resolve(null)
    asks.clear()
    if (ctx) await closeHostContext(ctx)
    options.onExit?.(0)
  }

  port.onMessage((raw) => {
    const message = readToHost(raw)
    if (!message) return
    switch (message.type) {
      case 'init':
        return start(message.config)
      case 'call': {
        const id = message.id
        if (!dispatcher) {
          post({
            type: 'result',
            id,
            result: {
              ok: false,
              error: { code: 'HOST_STARTING', message: 'The background service is still starting; try again in a moment.' }
            }
          })
          return
        }
        void dispatcher.dispatch(message.name, message.arg).then((result) => post({ type: 'result', id, result }))
        return
      }
      case 'answer': {
        const resolve = asks.get(message.id)
        asks.delete(message.id)
        resolve?.(message.value)
        return
      }
      case 'ping':
        return post({ type: 'pong', id: message.id })
      case 'shutdown':
        void stop()
        return
    }
  })
}
