// The workspace's doorbell: one dedicated connection LISTENing on ledgerline_events, which carries no data and never replays: a ring (or a reconnect, after which rings may have been missed) tells the client to pull; a heartbeat finds a dead connection.
import pg from 'pg'
import { clientConfig, teamError, type TeamServer } from './connection'

export interface DoorbellOptions {
  /** How often the connection is checked (ms). */
  heartbeatMs?: number
  /** The first wait before connecting again (ms); doubled up to a minute. */
  retryMs?: number
  password?: string
  /** Told when the connection is lost (with why) and when it is back. */
  onState?: (state: 'listening' | 'lost', reason?: string) => void
}

export class Doorbell {
  private client: pg.Client | null = null
  private heartbeat: NodeJS.Timeout | null = null
  private retry: NodeJS.Timeout | null = null
  private stopped = false
  private wait: number

  constructor(
    private readonly server: TeamServer,
    private readonly ring: () => void,
    private readonly options: DoorbellOptions = {}
  ) {
    this.wait = options.retryMs ?? 1_000
  }

  /** Connects and listens; resolves once listening (or once the first attempt failed: it keeps trying). */
  async start(): Promise<void> {
    this.stopped = false
    await this.connect()
  }

  private async connect(): Promise<void> {
    if (this.stopped) return
    let client: pg.Client
    try {
      client = new pg.Client(clientConfig(this.server, this.options.password))
    } catch (error) {
      // Settings that cannot be read (a CA file gone) do not mend by waiting: said, not tried again.
      this.options.onState?.('lost', teamError(error, this.server).message)
      return
    }
    this.client = client
    client.on('notification', () => this.ring())
    client.on('error', (error) => this.lost(client, error))
    client.on('end', () => this.lost(client, new Error('the connection closed')))
    try {
      await client.connect()
      await client.query('listen ledgerline_events')
    } catch (error) {
      this.lost(client, error)
      return
    }
    this.wait = this.options.retryMs ?? 1_000
    this.options.onState?.('listening')
    this.heartbeat = setInterval(() => {
      client.query('select 1').catch((error: unknown) => this.lost(client, error))
    }, this.options.heartbeatMs ?? 30_000)
    // Events may have been committed while not listening: pull once now.
    this.ring()
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return
    this.client = null
    if (this.heartbeat) clearInterval(this.heartbeat)
    this.heartbeat = null
    client.removeAllListeners()
    client.on('error', () => undefined)
    void client.end().catch(() => undefined)
    if (this.stopped) return
    this.options.onState?.('lost', teamError(error, this.server).message)
    this.retry = setTimeout(() => {
      this.retry = null
      void this.connect()
    }, this.wait)
    this.wait = Math.min(this.wait * 2, 60_000)
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.heartbeat) clearInterval(this.heartbeat)
    if (this.retry) clearTimeout(this.retry)
    const client = this.client
    this.client = null
    if (client) {
      client.removeAllListeners()
      client.on('error', () => undefined)
      await client.end().catch(() => undefined)
    }
  }
}
