// Starts the service host as a plain Node child process: how tests, benchmarks and the e2e harness run the real two-process path.
import { fork } from 'node:child_process'
import { join } from 'node:path'
import type { HostLauncher } from './supervisor'

export interface NodeLauncherOptions {
  /** The host entry; default: the TypeScript source, run through tsx. */
  entry?: string
  env?: NodeJS.ProcessEnv
}

export const HOST_ENTRY_SOURCE = join(__dirname, 'entry.ts')

export function nodeHostLauncher(options: NodeLauncherOptions = {}): HostLauncher {
  const entry = options.entry ?? HOST_ENTRY_SOURCE
  return () => {
    const child = fork(entry, [], {
      serialization: 'advanced',
      execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [],
      env: options.env ?? process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc']
    })
    return {
      pid: child.pid,
      send: (message) => {
        if (child.connected) child.send(message)
      },
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.once('exit', (code, signal) => listener({ code, signal })),
      kill: () => void child.kill('SIGKILL')
    }
  }
}
