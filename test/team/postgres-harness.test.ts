// The tests' throwaway PostgreSQL never outlives the test process that started it: killed (kill -9, a crashed worker), its server stops and its folder goes.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { until } from '../support/wait'

describe('the PostgreSQL test harness', () => {
  it('stops the server and removes its folder when the process that started it is killed', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'support', 'postgres-child.ts')], {
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    const started = await until(
      'the child to start its server',
      () => (out.includes('\n') ? (JSON.parse(out) as { port: number; dir: string }) : undefined),
      {
        last: () => err
      }
    )
    expect(existsSync(started.dir)).toBe(true)
    child.kill('SIGKILL')
    // Nothing answers on its port any more, and its folder is gone.
    await until('the server to stop', async () => {
      const client = new pg.Client({
        host: '127.0.0.1',
        port: started.port,
        user: 'nobody',
        database: 'postgres',
        connectionTimeoutMillis: 2000
      })
      try {
        await client.connect()
        return undefined
      } catch (error) {
        const refused = /ECONNREFUSED/.test(String((error as Error).message)) || (error as { code?: string }).code === 'ECONNREFUSED'
        return refused ? true : undefined
      } finally {
        await client.end().catch(() => undefined)
      }
    })
    await until('its folder to be removed', () => (existsSync(dirname(started.dir)) ? undefined : true))
  }, 120_000)
})
