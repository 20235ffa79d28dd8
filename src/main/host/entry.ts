// The service host's entry: one file for both runtimes. Under Electron it is a utility process talking over a MessagePort;
// under plain Node (tests, benchmarks) a child process talking over its IPC channel. main forks and supervises it either way.
import { join } from 'node:path'
import { createFileLogger, LOG_FILE_NAME } from '../log'
import { redactSecrets } from '../redact'
import { serveHost } from './host'
import type { FromHost, HostPort } from './protocol'

/** The utility process's link to main (Electron adds it to process): the init message carries the MessagePort. */
interface ParentPort {
  once(event: 'message', listener: (event: { data: unknown; ports: MessagePortLike[] }) => void): void
}
interface MessagePortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void
  on(event: 'close', listener: () => void): void
  postMessage(message: unknown): void
  start(): void
}

const exit = (code: number): void => {
  // Let the last messages leave before the process goes.
  setTimeout(() => process.exit(code), 50)
}

function crashLogger(logs: string | undefined): (error: unknown) => void {
  return (error) => {
    const text = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error)
    if (logs) createFileLogger(join(logs, LOG_FILE_NAME)).error(`service host crashed: ${text}`)
    console.error(redactSecrets(`service host crashed: ${text}`))
    process.exit(70)
  }
}

/** A HostPort whose incoming messages are handed over by whoever owns the real channel. */
function relayPort(post: (message: FromHost) => void): { port: HostPort; deliver(message: unknown): void } {
  let listener: ((message: unknown) => void) | null = null
  return {
    port: { post, onMessage: (l) => void (listener = l) },
    deliver: (message) => listener?.(message)
  }
}

const initLogs = (message: unknown): string | undefined =>
  (message as { config?: { paths?: { logs?: string } } } | null)?.config?.paths?.logs

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort

if (parentPort) {
  // Electron utility process: main sends { type: 'init', config } with one MessagePort to use from then on.
  parentPort.once('message', (event) => {
    const messagePort = event.ports[0]
    if (!messagePort) return exit(1)
    process.on('uncaughtException', crashLogger(initLogs(event.data)))
    process.on('unhandledRejection', crashLogger(initLogs(event.data)))
    {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- only inside Electron's utility process, where net.fetch exists.
      const { net } = require('electron') as typeof import('electron')
      const relay = relayPort((message) => messagePort.postMessage(message))
      messagePort.on('message', (e) => relay.deliver(e.data))
      messagePort.on('close', () => exit(0))
      serveHost(relay.port, { fetch: net.fetch as unknown as typeof fetch, onExit: exit })
      messagePort.start()
      relay.deliver(event.data)
    }
  })
} else if (process.send) {
  // Plain Node child process (fork with serialization: 'advanced'): the IPC channel is the port.
  const relay = relayPort((message) => {
    if (process.connected) process.send?.(message)
  })
  process.on('message', (message) => {
    if ((message as { type?: unknown } | null)?.type === 'init') {
      process.on('uncaughtException', crashLogger(initLogs(message)))
      process.on('unhandledRejection', crashLogger(initLogs(message)))
    }
    relay.deliver(message)
  })
  process.on('disconnect', () => exit(0))
  serveHost(relay.port, { onExit: exit })
} else {
  console.error('The Ledgerline service host is started by the app (or its tests), not on its own.')
  process.exit(2)
}
