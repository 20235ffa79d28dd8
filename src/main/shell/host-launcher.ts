// Starts the service host as an Electron utility process and talks to it over a MessagePort (MessageChannelMain).
import { MessageChannelMain, utilityProcess } from 'electron'
import type { HostLauncher } from '../host/supervisor'

export function utilityHostLauncher(entry: string): HostLauncher {
  return () => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Ledgerline services', stdio: 'inherit' })
    const { port1, port2 } = new MessageChannelMain()
    let portSent = false
    port1.start()
    return {
      get pid() {
        return child.pid
      },
      send: (message) => {
        // The init message carries the host's end of the channel; everything after goes over the port.
        if (!portSent && message.type === 'init') {
          portSent = true
          child.postMessage(message, [port2])
        } else port1.postMessage(message)
      },
      onMessage: (listener) => port1.on('message', (event) => listener(event.data)),
      onExit: (listener) => child.once('exit', (code) => listener({ code, signal: null })),
      kill: () => void child.kill()
    }
  }
}
