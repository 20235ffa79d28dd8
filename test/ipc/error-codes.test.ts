// Error codes are typed per domain (src/shared/error-codes.ts): each code in one table with one meaning, every kind titled in words, the CLI's exit code and the window's banner title taken from the kind, never from a code's text.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { failureExitCode } from '../../src/cli/exit-codes'
import { ApiError, errorFromResponse } from '../../src/main/api/errors'
import { AppError, isAppError } from '../../src/main/errors'
import { codeIs, ERROR_KINDS, ERROR_TABLES, errorKind, errorTitle, isErrorCode, providerCode } from '../../src/shared/error-codes'
import { PROJECT_ROOT } from '../support/renderer-harness'

describe('error codes', () => {
  it('puts each code in one table, of a kind that has a title in words', () => {
    const owner = new Map<string, string>()
    for (const [domain, table] of Object.entries(ERROR_TABLES))
      for (const [code, kind] of Object.entries(table)) {
        expect(owner.get(code), `${code} is in ${owner.get(code)} and ${domain}`).toBeUndefined()
        owner.set(code, domain)
        expect(ERROR_KINDS[kind].title).toMatch(/^[A-Z][a-z ]+$/)
      }
    expect(owner.size).toBeGreaterThan(100)
  })

  it('names in a table every code the main side throws by name (no code made up where it is thrown)', () => {
    const thrown = new Set<string>()
    const walk = (dir: string): void => {
      for (const e of readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true })) {
        const path = `${dir}/${e.name}`
        if (e.isDirectory()) walk(path)
        else if (e.name.endsWith('.ts'))
          for (const [, code] of readFileSync(join(PROJECT_ROOT, path), 'utf8').matchAll(/new AppError\(\s*'([A-Za-z_0-9]+)'/g))
            thrown.add(code as string)
      }
    }
    walk('src/main')
    walk('src/cli')
    expect(thrown.size).toBeGreaterThan(80)
    expect([...thrown].filter((code) => !isErrorCode(code))).toEqual([])
  })

  it('gives the CLI exit 2 for the caller’s input and 1 for the rest, by the kind of the code', () => {
    expect(failureExitCode(new AppError('not_a_statement', 'x'), false)).toBe(2)
    expect(failureExitCode(new AppError('session_closed', 'x'), false)).toBe(2)
    expect(failureExitCode(new AppError('team_role_refused', 'x'), false)).toBe(2)
    expect(failureExitCode(new AppError('team_unreachable', 'x'), false)).toBe(1)
    expect(failureExitCode(new AppError('cache_damaged', 'x'), false)).toBe(1)
    expect(failureExitCode(new AppError('export_failed', 'x'), false)).toBe(1)
    expect(failureExitCode(new Error('boom'), false)).toBe(1)
    expect(failureExitCode(new Error('boom'), true)).toBe(2)
    // A provider's own code is the provider's: the CLI does not blame the caller for it.
    expect(failureExitCode(errorFromResponse('GET /payments', 400, { message: 'weird_thing' }), false)).toBe(1)
  })

  it('titles a banner by the kind, a provider’s own code by its HTTP status, and knows a declined confirmation', () => {
    expect(errorTitle({ code: 'pdf_password_wrong' })).toBe('This file cannot be read')
    expect(errorTitle({ code: 'invalid_credentials' })).toBe('The key was not accepted')
    expect(errorTitle({ code: 'team_unreachable' })).toBe('The server could not be reached')
    const provider = errorFromResponse('GET /payments/x', 404, { message: 'not_found' })
    expect(provider).toBeInstanceOf(ApiError)
    expect(errorTitle({ code: provider.code, details: provider.details })).toBe('Not found')
    expect(errorTitle({ code: providerCode('something_new') })).toBe('That did not work')
    expect(errorKind('not_confirmed')).toBe('declined')
    expect(errorKind(providerCode('x'), 503)).toBe('server')
  })

  it('matches codes only through typed checks', () => {
    expect(codeIs({ code: 'session_closed' }, 'session_open', 'session_closed')).toBe(true)
    expect(codeIs(null, 'session_closed')).toBe(false)
    expect(isAppError(new AppError('team_unreachable', 'x'), 'team_unreachable')).toBe(true)
    expect(isAppError(new Error('team_unreachable'), 'team_unreachable')).toBe(false)
    // @ts-expect-error a misspelt code does not compile
    expect(codeIs({ code: 'session_closed' }, 'session_closd')).toBe(false)
  })
})
