// Builds window.api from the contract's names over any transport; self-contained so the test bridge can inject the same code.
import type { Api } from '../shared/ipc/contract'

export interface ApiTransport {
  invoke(name: string, arg: unknown): Promise<unknown>
  subscribe(event: string, listener: (payload: unknown) => void): () => void
}

/**
 * Must not reference anything outside its own body: the browser test harness injects it
 * into the page with Function.prototype.toString.
 */
export function createApi(callNames: readonly string[], eventNames: readonly string[], transport: ApiTransport): Api {
  const domains: Record<string, Record<string, (arg?: unknown) => Promise<unknown>>> = {}
  for (const name of callNames) {
    const split = name.indexOf(':')
    const domain = name.slice(0, split)
    const action = name.slice(split + 1)
    const methods = (domains[domain] ??= {})
    methods[action] = (arg?: unknown) =>
      Promise.resolve()
        .then(() => transport.invoke(name, arg))
        .catch(() => ({
          ok: false,
          error: { code: 'IPC_FAILED', message: 'The window could not reach the application process. Restart Ledgerline.' }
        }))
  }
  const knownEvents = new Set(eventNames)
  const api: Record<string, unknown> = {}
  for (const [domain, methods] of Object.entries(domains)) api[domain] = Object.freeze(methods)
  api.on = (event: string, listener: (payload: unknown) => void) => {
    if (!knownEvents.has(event)) throw new Error(`Unknown event "${event}"`)
    if (typeof listener !== 'function') throw new Error('An event listener must be a function')
    return transport.subscribe(event, listener)
  }
  return Object.freeze(api) as unknown as Api
}
