// The built-in Sandbox profile the app opens on when no key is configured.
import type { ProfileSummary } from '../../shared/ipc/contract'
import type { HandlerMap } from '../ipc/router'

export const SANDBOX_PROFILE: ProfileSummary = Object.freeze({
  id: 'sandbox',
  name: 'Sandbox',
  baseUrl: null,
  mode: 'test',
  builtIn: true
})

export function profileHandlers(): HandlerMap {
  return {
    'profile:active': () => SANDBOX_PROFILE
  }
}
