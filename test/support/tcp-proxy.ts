// A TCP proxy in front of the test's PostgreSQL: a member's client reaches the server through it, so a test can cut the network (connections dropped, new ones refused) and bring it back on the same port, and slow every packet down.
import { createServer, Socket, type Server } from 'node:net'

export interface TcpProxy {
  port: number
  /** Drops every connection and refuses new ones until restore(). */
  cut(): Promise<void>
  restore(): Promise<void>
  /** Delays each chunk by this many ms in both directions (0: none). */
  delay(ms: number): void
  close(): Promise<void>
}

export async function startProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let lag = 0
  const pipe = (from: Socket, to: Socket): void => {
    from.on('data', (chunk) => {
      if (lag === 0) to.write(chunk)
      else {
        from.pause()
        setTimeout(() => {
          to.write(chunk)
          from.resume()
        }, lag)
      }
    })
  }
  const make = (): Server =>
    createServer((client) => {
      const upstream = new Socket()
      sockets.add(client)
      sockets.add(upstream)
      const drop = (): void => {
        client.destroy()
        upstream.destroy()
        sockets.delete(client)
        sockets.delete(upstream)
      }
      client.on('error', drop).on('close', drop)
      upstream.on('error', drop).on('close', drop)
      upstream.connect(targetPort, '127.0.0.1')
      pipe(client, upstream)
      pipe(upstream, client)
    })
  let server = make()
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        const address = server.address()
        resolve(typeof address === 'object' && address ? address.port : port)
      })
    })
  const port = await listen(0)
  const shut = (): Promise<void> =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy()
      sockets.clear()
      server.close(() => resolve())
    })
  return {
    port,
    cut: shut,
    async restore() {
      server = make()
      await listen(port)
    },
    delay(ms) {
      lag = ms
    },
    close: shut
  }
}
