// The real `ledgerline sandbox` command: one JSON line, both 401 shapes over HTTP, clean stop, one-line usage errors.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../support/renderer-harness'

const BIN = join(PROJECT_ROOT, 'bin', 'ledgerline.cjs')

describe('ledgerline sandbox', { timeout: 60_000 }, () => {
  let child: ChildProcessWithoutNullStreams
  let started: { baseUrl: string; testKey: string; liveKey: string; bulkFileIds: { test: string[] } }

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--seed', '7', '--payments', '1000'], { cwd: PROJECT_ROOT })
    const firstLine = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout })
      lines.once('line', resolve)
      child.once('exit', (code) => reject(new Error(`sandbox exited early with ${code}`)))
    })
    started = JSON.parse(firstLine) as typeof started
  })

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })

  it('prints baseUrl and keys in the provider’s format', () => {
    expect(started.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(started.testKey).toMatch(/^sk_test_[A-Za-z0-9]{20,}$/)
    expect(started.liveKey).toMatch(/^sk_live_[A-Za-z0-9]{20,}$/)
  })

  it('answers a bad key with shape A or shape B exactly as the spec lists per endpoint', async () => {
    const shapeA = [
      'POST /virtual-accounts/temporary',
      'GET /virtual-accounts/abc',
      'POST /payments/authorize',
      'GET /payments',
      'POST /transfers/bulk/validate'
    ]
    const shapeB = [
      'GET /transfers/bulk/abc/transfers',
      'GET /transfers/reference/abc',
      'GET /transfers/banks/NGN',
      'GET /subscriptions',
      'POST /bulk-plans',
      'GET /plans/abc',
      'POST /plans/abc/cancel'
    ]
    const call = async (line: string, key: string | null): Promise<{ status: number; body: Record<string, unknown> }> => {
      const [method, path] = line.split(' ') as [string, string]
      const response = await fetch(`${started.baseUrl}${path}`, { method, headers: key ? { Authorization: `Bearer ${key}` } : {} })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    for (const line of shapeA) {
      for (const key of ['sk_test_wrong', null]) {
        const { status, body } = await call(line, key)
        expect(status, line).toBe(401)
        expect(body, line).toEqual({ error: 'Unauthorized', message: 'invalid_credentials', status: 401 })
      }
    }
    for (const line of shapeB) {
      const { status, body } = await call(line, 'sk_live_wrong')
      expect(status, line).toBe(401)
      expect(Object.keys(body).sort(), line).toEqual(['code', 'message', 'requestMarker', 'statusCode'])
      expect(body, line).toMatchObject({ code: 'AUTH_ERROR', statusCode: 401 })
      const missing = await call(line, null)
      expect(missing.body['message'], line).toBe('Authorization token is required.')
    }
  })

  it('serves its seeded data to the right key', async () => {
    const response = await fetch(`${started.baseUrl}/payments?size=5`, { headers: { Authorization: `Bearer ${started.testKey}` } })
    const page = (await response.json()) as { totalElements: number; content: { reference: string }[] }
    expect(page.totalElements).toBe(1000)
    expect(page.content[0]?.reference).toBe('TST-0000000')
  })

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})

describe('ledgerline usage errors', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 30_000 })

  it('explains a bad option or command in one line with a non-zero exit', () => {
    for (const args of [['sandbox', '--port', 'abc'], ['sandbox', '--port', '70000'], ['sandbox', '--frobnicate'], ['fly']]) {
      const result = run(...args)
      expect(result.status, args.join(' ')).toBe(2)
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
      expect(result.stderr, args.join(' ')).toMatch(/^ledgerline: /)
    }
  })

  it('prints help with exit 0', () => {
    const result = run('help')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('ledgerline sandbox')
  })
})
