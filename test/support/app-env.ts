// A real service host for tests: its own process (the TypeScript entry through tsx), a real cache file, the real keychain under a throwaway service name.
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { calls } from '../../src/shared/ipc/contract'
import type { CallResult } from '../../src/shared/ipc/result'
import type { SyncResource } from '../../src/shared/sync'
import type { CallName, CallValue, JobInfo } from '../../src/shared/ipc/contract'
import { createEventEmitter, type EventEmitter } from '../../src/main/ipc/events'
import { createGate, createSenderCheck, type Gate } from '../../src/main/ipc/gate'
import { nodeHostLauncher } from '../../src/main/host/node-launcher'
import type { HostConfig } from '../../src/main/host/protocol'
import type { ConfirmRequest, OpenFileRequest, SaveFileRequest } from '../../src/main/ipc/questions'
import { HostSupervisor, type SupervisorOptions } from '../../src/main/host/supervisor'
import { until } from './wait'

/** A fresh data folder and the host configuration a test app would have: unpaced, throwaway keychain service. */
export function testHostConfig(): HostConfig {
  const userData = mkdtempSync(join(tmpdir(), 'ledgerline-test-'))
  return {
    app: { name: 'Ledgerline', version: '0.1.0-test', electronVersion: null, chromeVersion: null },
    paths: { userData, cacheDatabase: join(userData, 'cache.sqlite'), logs: join(userData, 'logs') },
    sqlite: {},
    keychainService: `app.ledgerline.test-${randomUUID()}`,
    pacing: false
  }
}

/** What main's dialogs answer in a test: every question is recorded; confirmations get `confirmAnswer`. */
export interface ScriptedUi {
  confirmations: Omit<ConfirmRequest, 'kind'>[]
  saves: Omit<SaveFileRequest, 'kind'>[]
  opens: Omit<OpenFileRequest, 'kind'>[]
  /** What the open dialog answers: a path, or null for Cancel. */
  openAnswer: string | null
  confirmAnswer: boolean
  /** Where save dialogs "choose" to save. */
  exportDir: string
}

export interface TestHost {
  config: HostConfig
  supervisor: HostSupervisor
  ui: ScriptedUi
  /** Every event the host sent, after main's check. */
  events: { name: string; payload: unknown }[]
  /** A call through main's gate, as the app's (first trusted) page would make it. */
  call<N extends CallName>(name: N, arg?: unknown): Promise<CallResult<CallValue<N>>>
  gate: Gate
  close(): Promise<void>
}

export const TEST_PAGE = 'http://127.0.0.1:5173/'

export interface TestHostOptions {
  config?: HostConfig
  /** Pages whose calls the gate trusts (default: TEST_PAGE). */
  trustedPages?: string[]
  /** Also receives each checked event (the renderer harness passes it to the page). */
  onEvent?: EventEmitter['emit']
  supervisor?: Partial<Pick<SupervisorOptions, 'heartbeat' | 'restarts' | 'readyTimeoutMs'>>
}

/** Starts the real host in its own process behind a real supervisor and gate. */
export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const config = options.config ?? testHostConfig()
  const ui: ScriptedUi = {
    confirmations: [],
    saves: [],
    opens: [],
    openAnswer: null,
    confirmAnswer: true,
    exportDir: mkdtempSync(join(tmpdir(), 'ledgerline-export-'))
  }
  const events: TestHost['events'] = []
  const checked = createEventEmitter((_channel, name, payload) => {
    events.push({ name, payload })
    options.onEvent?.(name as never, payload as never)
  })
  const supervisor = new HostSupervisor({
    launch: nodeHostLauncher(),
    config,
    ui: {
      confirm: async (request) => {
        ui.confirmations.push(request)
        return ui.confirmAnswer
      },
      chooseSaveFile: async (request) => {
        ui.saves.push(request)
        return join(ui.exportDir, request.suggestedName)
      },
      chooseOpenFile: async (request) => {
        ui.opens.push(request)
        return ui.openAnswer
      }
    },
    onEvent: (name, payload) => checked.emit(name as never, payload as never),
    ...options.supervisor
  })
  await supervisor.start()
  const pages = options.trustedPages ?? [TEST_PAGE]
  const gate = createGate({
    contract: calls,
    isTrustedSender: createSenderCheck(pages),
    forward: (name, arg) => supervisor.call(name, arg)
  })
  return {
    config,
    supervisor,
    ui,
    events,
    gate,
    call: (name, arg) => gate.dispatch(name, arg, { url: pages[0] as string, isMainFrame: true }) as never,
    close: () => supervisor.stop()
  }
}

/** The value of a successful call, or a test failure naming the error. */
export function valueOf<T>(result: CallResult<T>): T {
  if (!result.ok) throw new Error(`call failed: ${result.error.code}: ${result.error.message}`)
  return result.value
}

/** The host's job once it has ended (succeeded, failed or cancelled), asked for again until it has. */
export function finishedJob(host: TestHost, jobId: string): Promise<JobInfo> {
  return until(`job ${jobId} to finish`, async () =>
    valueOf(await host.call('job:list', undefined)).find((j) => j.id === jobId && j.state !== 'running')
  )
}

/** Starts a sync of the profile in use (all resources, or those named) and waits for it; a sync that does not succeed fails the test. */
export async function syncAndWait(host: TestHost, resources?: SyncResource[]): Promise<void> {
  const job = valueOf(await host.call('sync:start', resources ? { resources } : {}))
  const found = await finishedJob(host, job.id)
  if (found.state !== 'succeeded')
    throw new Error(`sync ${found.state}: ${found.error ? `${found.error.code}: ${found.error.message}` : 'no error given'}`)
}
