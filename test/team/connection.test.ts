// The workspace server URL: TLS verify-full for any server not on this computer unless the URL lowers it, no password ever in it, and node-postgres given exactly that.
import { describe, expect, it } from 'vitest'
import { clientConfig, readServerUrl, teamError } from '../../src/main/team/connection'

describe('a workspace server URL', () => {
  it('requires verified TLS for a server elsewhere, and none on this computer unless asked', () => {
    const remote = readServerUrl('postgres://alice@db.firm.example:6543/books')
    expect(remote).toMatchObject({
      host: 'db.firm.example',
      port: 6543,
      database: 'books',
      user: 'alice',
      sslMode: 'verify-full',
      local: false
    })
    expect(clientConfig(remote).ssl).toEqual({ rejectUnauthorized: true, ca: undefined })
    expect(readServerUrl('postgres://alice@127.0.0.1/books')).toMatchObject({ sslMode: 'disable', local: true, port: 5432 })
    expect(clientConfig(readServerUrl('postgres://alice@localhost/books')).ssl).toBe(false)
    expect(readServerUrl('postgres://alice@x/books?host=/run/postgresql')).toMatchObject({ host: '/run/postgresql', local: true })
    expect(readServerUrl('postgres://alice@localhost/books?sslmode=verify-full').sslMode).toBe('verify-full')
  })

  it('lowers the check only when the URL says so, and never falls back to no TLS by itself', () => {
    expect(clientConfig(readServerUrl('postgres://a@db.example/x?sslmode=require')).ssl).toEqual({ rejectUnauthorized: false })
    expect(readServerUrl('postgres://a@db.example/x?sslmode=prefer').sslMode).toBe('require')
    expect(readServerUrl('postgres://a@db.example/x?sslmode=disable').sslMode).toBe('disable')
    const ca = clientConfig(readServerUrl('postgres://a@db.example/x?sslmode=verify-ca'))
    expect(ca.ssl).toMatchObject({ rejectUnauthorized: true })
    expect(() => readServerUrl('postgres://a@db.example/x?sslmode=maybe')).toThrow(/sslmode=maybe is not one PostgreSQL knows/)
  })

  it('refuses a password in the URL without repeating it, and anything but postgres://', () => {
    expect(() => readServerUrl('postgres://alice:hunter2@db.example/x')).toThrow(/holds a password/)
    try {
      readServerUrl('postgres://alice:hunter2@db.example/x')
    } catch (error) {
      expect(String(error)).not.toContain('hunter2')
    }
    expect(() => readServerUrl('mysql://alice@db.example/x')).toThrow(/starts with postgres:\/\//)
    expect(() => readServerUrl('not a url')).toThrow(/is not a server URL/)
    // The config carries a password only when the app gives one (the CLI leaves it to PGPASSWORD or ~/.pgpass).
    expect(clientConfig(readServerUrl('postgres://a@localhost/x'))).not.toHaveProperty('password')
    expect(clientConfig(readServerUrl('postgres://a@localhost/x'), 'from keychain').password).toBe('from keychain')
  })

  it('tells refusals, logins, TLS and unreachable servers apart', () => {
    const server = readServerUrl('postgres://bob@db.example/x')
    expect(teamError(Object.assign(new Error('nope'), { code: 'LLROL' }), server).code).toBe('team_role_refused')
    expect(teamError(Object.assign(new Error('x'), { code: '28P01' }), server).message).toMatch(/refused the login bob@db.example:5432\/x/)
    expect(teamError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }), server).code).toBe('team_unreachable')
    expect(teamError(new Error('self-signed certificate in certificate chain'), server).message).toMatch(/sslrootcert=FILE/)
    expect(teamError(new Error('The server does not support SSL connections'), server).code).toBe('team_tls_failed')
  })
})
