// TLS against a real PostgreSQL that serves it, at an address Ledgerline does not take for this computer (127.0.0.2): verify-full by default (its certificate checked against the CA given and the host named), refused without the CA, for another host name, and when the server offers no TLS; lowered only when the URL says so; the CLI and the app connect the same way.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientConfig, readServerUrl, withServer } from '../../src/main/team/connection'
import { startTestHost, testHostConfig, valueOf, type TestHost } from '../support/app-env'
import { runCli } from '../support/cli'
import { startPostgres, type TestPostgres } from '../support/postgres'

const dir = mkdtempSync(join(tmpdir(), 'ledgerline-tls-'))
const ca = join(dir, 'ca.crt')
const otherCa = join(dir, 'other-ca.crt')
let tls: TestPostgres
let plain: TestPostgres
let host: TestHost | undefined
const PASSWORD = 'tls member pass'

/** A CA of its own (and another, to be refused) and a server certificate it signed for 127.0.0.2 (its IP in the subject alternative names). */
function certificates(): { cert: string; key: string } {
  const openssl = (args: string): void => void execFileSync('openssl', args.split(' '), { cwd: dir, stdio: 'pipe' })
  // A subject without spaces: the arguments are split on them.
  const authority = (name: string, file: string): void =>
    openssl(`req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=${name} -keyout ${file}.key -out ${file}.crt`)
  authority('Ledgerline-test-CA', 'ca')
  authority('Another-CA', 'other-ca')
  openssl('req -newkey rsa:2048 -nodes -subj /CN=127.0.0.2 -keyout server.key -out server.csr')
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.2\n')
  openssl('x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.crt')
  return { cert: readFileSync(join(dir, 'server.crt'), 'utf8'), key: readFileSync(join(dir, 'server.key'), 'utf8') }
}

const member = (server: TestPostgres, address: string, query = ''): string => `postgres://member@${address}:${server.port}/postgres${query}`

/** Whether the connection the URL makes is encrypted, as the server sees it. */
async function encrypted(url: string): Promise<boolean> {
  const client = new pg.Client(clientConfig(readServerUrl(url), PASSWORD))
  await client.connect()
  try {
    return (await client.query<{ ssl: boolean }>('select ssl from pg_stat_ssl where pid = pg_backend_pid()')).rows[0]?.ssl === true
  } finally {
    await client.end()
  }
}

const refusal = (url: string): Promise<string> =>
  withServer(readServerUrl(url), async () => 'connected', PASSWORD).catch((error: { code: string }) => error.code)

beforeAll(async () => {
  tls = await startPostgres({ listen: ['127.0.0.1', '127.0.0.2', '127.0.0.3'], tls: certificates() })
  plain = await startPostgres({ listen: ['127.0.0.1', '127.0.0.2'] })
  for (const server of [tls, plain]) {
    await server.createLogin('member', PASSWORD, 'createrole')
    await server.sql('grant create on database postgres to member')
  }
}, 120_000)

afterAll(async () => {
  await host?.close()
  await tls?.stop()
  await plain?.stop()
})

describe('a workspace server not on this computer', () => {
  it('is reached with its certificate verified against the CA given, and for the host named', async () => {
    expect(readServerUrl(member(tls, '127.0.0.2')).sslMode).toBe('verify-full')
    expect(await encrypted(member(tls, '127.0.0.2', `?sslrootcert=${ca}`))).toBe(true)
    // Its certificate is not one the system trusts, nor signed by another CA.
    expect(await refusal(member(tls, '127.0.0.2'))).toBe('team_tls_failed')
    expect(await refusal(member(tls, '127.0.0.2', `?sslrootcert=${otherCa}`))).toBe('team_tls_failed')
    // The right CA, but the certificate names another host: verify-full refuses, verify-ca (asked for) does not.
    expect(await refusal(member(tls, '127.0.0.3', `?sslrootcert=${ca}`))).toBe('team_tls_failed')
    expect(await encrypted(member(tls, '127.0.0.3', `?sslmode=verify-ca&sslrootcert=${ca}`))).toBe(true)
    // A CA file that is not there is said as such.
    expect(await refusal(member(tls, '127.0.0.2', `?sslrootcert=${join(dir, 'missing.crt')}`))).toBe('bad_server_url')
    // Lowered by the URL: encrypted, the certificate not checked.
    expect(await encrypted(member(tls, '127.0.0.2', '?sslmode=require'))).toBe(true)
  })

  it('that offers no TLS is refused, unless the URL says the network is trusted', async () => {
    const refused = await withServer(readServerUrl(member(plain, '127.0.0.2')), async () => null, PASSWORD).catch((e: Error) => e)
    expect(refused).toMatchObject({ code: 'team_tls_failed', message: expect.stringMatching(/127\.0\.0\.2 does not offer TLS/) })
    expect(await encrypted(member(plain, '127.0.0.2', '?sslmode=disable'))).toBe(false)
  })

  it('is set up by the CLI and joined by the app over verified TLS', async () => {
    const url = member(tls, '127.0.0.2', `?sslrootcert=${ca}`)
    const env = { PGPASSWORD: PASSWORD, HOME: dir, PGPASSFILE: join(dir, 'none') }
    const setup = await runCli(['team', 'setup', '--server', url], env)
    expect(setup.stderr).toBe('')
    expect(setup.code).toBe(0)
    expect((await runCli(['team', 'member', 'add', 'member', '--role', 'admin', '--server', url], env)).code).toBe(0)
    const unverified = await runCli(['team', 'member', 'list', '--server', member(tls, '127.0.0.2')], env)
    expect(unverified.code).toBe(2)
    expect(unverified.stderr).toMatch(/TLS could not be verified .* Give its CA in sslrootcert=FILE/)

    host = await startTestHost({ config: testHostConfig() })
    const refusedApp = await host.call('team:connect', { url: member(tls, '127.0.0.2'), password: PASSWORD })
    expect(refusedApp.ok ? null : refusedApp.error.code).toBe('team_tls_failed')
    expect(valueOf(await host.call('team:connect', { url, password: PASSWORD }))).toMatchObject({ login: 'member', role: 'admin' })
    const app = host
    await expect.poll(async () => valueOf(await app.call('team:status'))?.line).toBe('listening')
  }, 120_000)
})
