// A throwaway PostgreSQL server for the team tests and bench: Debian's postgresql binaries, initdb into a temporary folder as an unprivileged user (initdb and postgres refuse root), a random port on 127.0.0.1, password logins; stopped and removed afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { until } from './wait'

export interface TestPostgres {
  port: number
  /** The superuser's connection URL (its password in it: tests only). */
  superUrl: string
  /** A URL for a login, without its password (given apart, as a member's client does). */
  url(login: string): string
  /** Runs SQL as the superuser. */
  sql(text: string, values?: unknown[]): Promise<pg.QueryResult>
  /** Creates a login with a password (and options such as CREATEROLE). */
  createLogin(login: string, password: string, options?: string): Promise<void>
  /** Runs psql as a login, with its password; returns its exit code and output. */
  psql(login: string, password: string, sql: string): { status: number; stdout: string; stderr: string }
  stop(): Promise<void>
}

const SUPER = 'ledgerline_test_super'
const SUPER_PASSWORD = 'super-secret-for-tests'

/** The newest installed PostgreSQL's bin folder, or null when the package is not installed. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : null
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

export interface PostgresOptions {
  /** Addresses to listen on (default 127.0.0.1). Any 127.x.y.z is this computer, but only 127.0.0.1, ::1 and localhost are taken for it by Ledgerline. */
  listen?: string[]
  /** Serves TLS with this certificate and key (PEM), besides plain connections. */
  tls?: { cert: string; key: string }
}

/** Starts a server and waits until it takes connections. */
export async function startPostgres(options: PostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBin()
  if (bin === null) throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql); .ci/run installs it.')
  const root = process.getuid?.() === 0
  // As root, the server runs as the postgres user the package creates; otherwise as whoever runs the tests.
  const owner = root ? spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }) : null
  const uid = owner ? Number(owner.stdout.trim()) : null
  const gid = root ? Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()) : null
  const as = (command: string, args: string[]): [string, string[]] =>
    root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-pg-'))
  chmodSync(dir, 0o700)
  const data = join(dir, 'data')
  const pwfile = join(dir, 'pw')
  writeFileSync(pwfile, SUPER_PASSWORD)
  if (uid !== null && gid !== null) {
    chownSync(dir, uid, gid)
    chownSync(pwfile, uid, gid)
  }
  const [initCmd, initArgs] = as(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    SUPER,
    `--pwfile=${pwfile}`,
    '--auth=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync'
  ])
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' })
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`)
  const port = await freePort()
  const tlsSettings: string[] = []
  if (options.tls) {
    // The key is the server user's own, readable by it alone (postgres refuses it otherwise).
    const cert = join(dir, 'server.crt')
    const key = join(dir, 'server.key')
    writeFileSync(cert, options.tls.cert)
    writeFileSync(key, options.tls.key, { mode: 0o600 })
    if (uid !== null && gid !== null) for (const f of [cert, key]) chownSync(f, uid, gid)
    tlsSettings.push('-c', 'ssl=on', '-c', `ssl_cert_file=${cert}`, '-c', `ssl_key_file=${key}`)
  }
  const [serverCmd, serverArgs] = as(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    ...tlsSettings,
    '-c',
    `listen_addresses=${(options.listen ?? ['127.0.0.1']).join(',')}`,
    '-c',
    `unix_socket_directories=${dir}`,
    '-c',
    'fsync=off',
    '-c',
    'max_connections=200'
  ])
  const server: ChildProcess = spawn(serverCmd, serverArgs, { stdio: ['ignore', 'ignore', 'pipe'] })
  // A watchdog outside this process: it waits on a pipe only this process holds open, and once the pipe closes (this
  // process ended, however: a test killed, a worker that crashed) it stops the server and removes its folder.
  const [stopCmd, stopArgs] = as(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w'])
  const watchdog = spawn(
    'sh',
    ['-c', 'cat > /dev/null; "$@" > /dev/null 2>&1; rm -rf "$LEDGERLINE_PG_DIR"', 'pg-watchdog', stopCmd, ...stopArgs],
    {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      env: { ...process.env, LEDGERLINE_PG_DIR: dir }
    }
  )
  watchdog.unref()
  ;(watchdog.stdin as unknown as { unref?: () => void }).unref?.()
  let log = ''
  server.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000)
  })
  const superUrl = `postgres://${SUPER}:${SUPER_PASSWORD}@127.0.0.1:${port}/postgres`
  const superPool = new pg.Pool({ connectionString: superUrl, max: 2 })
  // Wait for it to take connections (it is ready when a query answers, however long a loaded machine takes).
  let refused = ''
  await until(
    'postgres to take connections',
    async () => {
      if (server.exitCode !== null) throw new Error(`postgres exited: ${log}`)
      try {
        return await superPool.query('select 1')
      } catch (error) {
        refused = (error as Error).message
        return undefined
      }
    },
    { everyMs: 100, last: () => `${refused}\n${log}` }
  )
  return {
    port,
    superUrl,
    url: (login) => `postgres://${encodeURIComponent(login)}@127.0.0.1:${port}/postgres`,
    sql: (text, values) => superPool.query(text, values),
    async createLogin(login, password, options = '') {
      const quoted = (await superPool.query('select quote_ident($1) as i, quote_literal($2) as p', [login, password])).rows[0] as {
        i: string
        p: string
      }
      await superPool.query(`create role ${quoted.i} login password ${quoted.p} ${options}`)
    },
    psql(login, password, sql) {
      const run = spawnSync(
        'psql',
        ['-X', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', login, '-d', 'postgres', '-c', sql],
        {
          encoding: 'utf8',
          env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '30' }
        }
      )
      return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr }
    },
    async stop() {
      await superPool.end().catch(() => undefined)
      // Stopped here: the watchdog is not needed.
      watchdog.kill('SIGKILL')
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r))
        // pg_ctl's fast shutdown, as the user the server runs as (a signal to runuser would not reach it).
        const stopped = spawnSync(stopCmd, stopArgs, { encoding: 'utf8' })
        if (stopped.status !== 0) server.kill('SIGKILL')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
