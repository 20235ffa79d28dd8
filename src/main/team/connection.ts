// How Ledgerline reaches a team workspace's PostgreSQL: the server URL read into node-postgres settings, TLS required (verify-full) for any server not on this computer unless the user lowers it in the URL, never a password in the URL, refusals from the server told apart as AppErrors.
import { readFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import pg from 'pg'
import type { RuleErrorCode, TeamErrorCode } from '../../shared/error-codes'
import { AppError } from '../errors'

export type SslMode = 'disable' | 'require' | 'verify-ca' | 'verify-full'

export interface TeamServer {
  /** The URL as the user gave it, without a password (safe to show and to store). */
  url: string
  host: string
  port: number
  database: string
  user: string
  sslMode: SslMode
  /** Whether the server is on this computer (loopback or a Unix socket), where TLS is not required. */
  local: boolean
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

/**
 * A workspace server URL read: postgres://LOGIN@HOST:PORT/DATABASE?sslmode=…&sslrootcert=FILE.
 * A password in it is refused (a URL is shown, logged and kept): it comes from PGPASSWORD or
 * ~/.pgpass for the CLI, and from the system keychain in the app.
 */
export function readServerUrl(text: string): TeamServer {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new AppError(
      'bad_server_url',
      `"${text.replace(/:[^:@/]*@/, ':***@')}" is not a server URL (postgres://LOGIN@HOST:5432/DATABASE).`
    )
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new AppError('bad_server_url', `A workspace server URL starts with postgres:// (not ${url.protocol}//).`)
  if (url.password !== '')
    throw new AppError(
      'password_in_url',
      'The server URL holds a password. Leave it out: give it in PGPASSWORD or ~/.pgpass for the CLI; the app keeps it in the system keychain.'
    )
  const socket = url.searchParams.get('host')
  const host = socket ?? decodeURIComponent(url.hostname || 'localhost')
  const local = LOOPBACK.has(host) || host.startsWith('/')
  const given = url.searchParams.get('sslmode')
  if (given !== null && !['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'].includes(given))
    throw new AppError('bad_server_url', `sslmode=${given} is not one PostgreSQL knows (disable, require, verify-ca, verify-full).`)
  // allow and prefer would fall back to no TLS without saying so: read as require, which never does.
  const sslMode: SslMode =
    given === null ? (local ? 'disable' : 'verify-full') : given === 'allow' || given === 'prefer' ? 'require' : (given as SslMode)
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres'
  const user = decodeURIComponent(url.username) || process.env.PGUSER || userInfo().username
  const clean = new URL(url.toString())
  clean.password = ''
  return { url: clean.toString(), host, port: Number(url.port || 5432), database, user, sslMode, local }
}

/** The CA certificate file a URL names (sslrootcert=FILE), refused clearly when it cannot be read. */
function readRootCert(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new AppError(
      'bad_server_url',
      `sslrootcert=${file}: the CA certificate cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`
    )
  }
}

/** node-postgres settings for a server; the password given (the app's, from the keychain) or else PGPASSWORD / ~/.pgpass as libpq reads them. */
export function clientConfig(server: TeamServer, password?: string): pg.ClientConfig {
  const url = new URL(server.url)
  const rootCert = url.searchParams.get('sslrootcert')
  let ssl: pg.ClientConfig['ssl'] = false
  if (server.sslMode !== 'disable') {
    const ca = rootCert ? readRootCert(rootCert) : undefined
    ssl =
      server.sslMode === 'require'
        ? { rejectUnauthorized: false }
        : server.sslMode === 'verify-ca'
          ? { rejectUnauthorized: true, ca, checkServerIdentity: () => undefined }
          : { rejectUnauthorized: true, ca }
  }
  return {
    host: server.host,
    port: server.port,
    database: server.database,
    user: server.user,
    ...(password !== undefined ? { password } : {}),
    ssl,
    application_name: 'ledgerline',
    connectionTimeoutMillis: 15_000
  }
}

/** A refusal the workspace's functions raise: SQLSTATE class LL (role, state, separation of duties, conflict, no such rule). */
export const REFUSAL_STATES: Record<string, TeamErrorCode | RuleErrorCode> = {
  LLROL: 'team_role_refused',
  LLSTA: 'team_state_refused',
  LLSOD: 'team_duties_refused',
  LLCON: 'team_conflict',
  LLNOR: 'rule_not_found'
}

/** A node-postgres error as an AppError that says what happened (never the password, which pg never puts in a message). */
export function teamError(error: unknown, server: TeamServer): AppError {
  if (error instanceof AppError) return error
  const e = error as Error & { code?: string; detail?: string }
  const where = `${server.user}@${server.host}:${server.port}/${server.database}`
  const refusal = e.code ? REFUSAL_STATES[e.code] : undefined
  if (refusal) return new AppError(refusal, e.message)
  switch (e.code) {
    case '28P01':
    case '28000':
      return new AppError(
        'team_login_failed',
        `The server refused the login ${where}: wrong password, or no password given (PGPASSWORD or ~/.pgpass).`
      )
    case '42501':
      return new AppError('team_role_refused', `The server refused: ${e.message} (${where}).`)
    case '3D000':
      return new AppError('team_no_database', `The database "${server.database}" does not exist on ${server.host}:${server.port}.`)
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ECONNRESET':
    case 'EPIPE':
      return new AppError('team_unreachable', `The workspace server ${server.host}:${server.port} could not be reached (${e.code}).`)
  }
  if (/Connection terminated|connection timeout/i.test(e.message))
    return new AppError('team_unreachable', `The connection to the workspace server ${server.host}:${server.port} was lost (${e.message}).`)
  // Before the check below, which its message would also match.
  if (/does not support SSL/i.test(e.message))
    return new AppError(
      'team_tls_failed',
      `${server.host} does not offer TLS, which Ledgerline requires for a server not on this computer (add sslmode=disable to the URL only on a network you trust).`
    )
  if (/self[- ]signed|certificate|SSL|TLS/i.test(e.message))
    return new AppError(
      'team_tls_failed',
      `The server's TLS could not be verified (${e.message}). Give its CA in sslrootcert=FILE, or lower the check with sslmode=require in the URL.`
    )
  return new AppError('team_server_error', `${e.message}${e.code ? ` (SQLSTATE ${e.code})` : ''}`)
}

/** Runs `work` on one connection to the server, closed afterwards; every failure an AppError. */
export async function withServer<T>(server: TeamServer, work: (client: pg.Client) => Promise<T>, password?: string): Promise<T> {
  const client = new pg.Client(clientConfig(server, password))
  try {
    await client.connect()
    return await work(client)
  } catch (error) {
    throw teamError(error, server)
  } finally {
    await client.end().catch(() => undefined)
  }
}
