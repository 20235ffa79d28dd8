// The app domain of the IPC contract: what is running and where its data lives, notices, and the service host's state.
import { z } from 'zod'
import { call, noArgs, text } from './define'

export interface AppInfo {
  name: string
  version: string
  runtime: { node: string; electron: string | null; chrome: string | null; sqlite: string }
  platform: string
  paths: { userData: string; cacheDatabase: string; logs: string }
}

export const appCalls = {
  'app:info': call<AppInfo>()(noArgs)
} as const

export const HOST_STATES = ['ready', 'restarting', 'failed'] as const

export const appEvents = {
  'app:notice': z.strictObject({
    level: z.enum(['info', 'warning', 'error']),
    message: text(2000)
  }),
  /** The service host stopped and is being restarted, is back, or could not be started again. */
  'host:status': z.strictObject({
    state: z.enum(HOST_STATES),
    message: text(2000)
  })
} as const
