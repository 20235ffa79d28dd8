// The real CLI over the real keychain, cache and Sandbox: profiles, sync, search, export, and the key written nowhere.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { createOsKeychainStore, KEYCHAIN_SERVICE } from '../../src/main/secrets/secret-store'
import { CLI_KEYCHAIN_SERVICE, runCli, type CliRun } from '../support/cli'

let sandbox: Sandbox
let dir: string
let db: string
const outputs: CliRun[] = []

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const run = await runCli([...args, '--db', db], { LEDGERLINE_API_KEY: sandbox.keys.test, ...env })
  outputs.push(run)
  return run
}

beforeAll(async () => {
  sandbox = await startSandbox({ payments: 1500, rateLimits: false })
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-cli-'))
  db = join(dir, 'cache.sqlite')
})
afterAll(() => sandbox.close())

describe('ledgerline profile, sync, search, export', { timeout: 120_000 }, () => {
  let profileId = ''

  it('adds a profile after checking the key with the server, keeping the key in the keychain', async () => {
    const added = await cli(['profile', 'add', 'Acme Ltd', '--base-url', `${sandbox.baseUrl}/`, '--json'])
    expect(added.code, added.stderr).toBe(0)
    const profile = JSON.parse(added.stdout) as { id: string; mode: string; baseUrl: string }
    expect(profile).toMatchObject({ mode: 'test', baseUrl: sandbox.baseUrl })
    profileId = profile.id
    // Under the test's own keychain entries (LEDGERLINE_KEYCHAIN_SERVICE), never the installed Ledgerline's.
    expect(await createOsKeychainStore(CLI_KEYCHAIN_SERVICE).get(profileId)).toBe(sandbox.keys.test)
    expect(await createOsKeychainStore(KEYCHAIN_SERVICE).get(profileId)).toBeNull()
    const list = JSON.parse((await cli(['profile', 'list', '--json'])).stdout) as { name: string }[]
    expect(list.map((p) => p.name)).toEqual(['Sandbox', 'Acme Ltd'])
  })

  it('refuses a wrong key, a public key and a base URL without /v1, each with a clear one-line reason', async () => {
    const wrong = await cli(['profile', 'add', 'Wrong', '--base-url', sandbox.baseUrl], { LEDGERLINE_API_KEY: 'sk_test_not-it' })
    // Each is the caller's input to fix: exit 2, as the README says.
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(/^ledgerline: The provider at .* refused this key .*\[invalid_credentials\]\n$/)
    const publicKey = await cli(['profile', 'add', 'Public', '--base-url', sandbox.baseUrl], { LEDGERLINE_API_KEY: 'pk_test_abc' })
    expect(publicKey).toMatchObject({ code: 2, stderr: expect.stringMatching(/public key/) })
    const noVersion = await cli(['profile', 'add', 'Bare', '--base-url', sandbox.baseUrl.replace(/\/v1$/, '')])
    expect(noVersion).toMatchObject({ code: 2, stderr: expect.stringMatching(/should end in \/v1/) })
    const none = await cli(['profile', 'add', 'NoKey', '--base-url', sandbox.baseUrl], { LEDGERLINE_API_KEY: '' })
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/LEDGERLINE_API_KEY/)
  })

  it('syncs with the key from the keychain and reports per resource', async () => {
    const run = await cli([
      'sync',
      '--profile',
      'acme ltd',
      '--no-pacing',
      '--json',
      '--track-bulk-file',
      sandbox.bulkFileIds.test[0] as string
    ])
    expect(run.code, run.stderr).toBe(0)
    const summary = JSON.parse(run.stdout) as { resources: Record<string, { ok: boolean; written: number }> }
    expect(summary.resources['payments']).toMatchObject({ ok: true, written: 1500 })
    expect(summary.resources['transfers']).toMatchObject({ ok: true, written: 25 })
    expect(run.stderr).toMatch(/payments \(done\): 1,500 \/ 1,500/)
  })

  it('searches the cache offline, as JSON or a table', async () => {
    const json = await cli(['search', '--profile', 'Acme Ltd', '--json', '--status', 'failed', '--page-size', '200'])
    const result = JSON.parse(json.stdout) as { total: number; items: { status: string }[]; profile: { mode: string } }
    expect(result.total).toBeGreaterThan(0)
    expect(result.items.every((i) => i.status === 'failed')).toBe(true)
    expect(result.profile.mode).toBe('test')
    const table = await cli(['search', '--profile', 'Acme Ltd', 'TST-0000007'])
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/^1 payments in "Acme Ltd" \(TEST, times in [A-Za-z_/+-]+\)/)
    expect(table.stdout).toContain('TST-0000007')
    for (const text of ['"', 'AND(', '*', '-', 'ünïcödé 🙂'])
      expect((await cli(['search', '--profile', 'Acme Ltd', text])).code, text).toBe(0)
    const badFilter = await cli(['search', '--profile', 'Acme Ltd', '--min', '10'])
    expect(badFilter.code).toBe(2)
    expect(badFilter.stderr).toMatch(/choose a currency/)
  })

  it('exports an Excel-safe CSV of exactly the filtered records', async () => {
    const out = join(dir, 'ngn.csv')
    const run = await cli([
      'export',
      '--profile',
      'Acme Ltd',
      '--resource',
      'payments',
      '--filter',
      'currency=NGN',
      '--filter',
      'status=successful',
      '--out',
      out
    ])
    expect(run.code, run.stderr).toBe(0)
    const csv = readFileSync(out, 'utf8')
    expect(csv.charCodeAt(0)).toBe(0xfeff)
    const lines = csv.slice(1).split('\r\n')
    expect(lines.at(-1)).toBe('')
    expect(csv.slice(1).replace(/\r\n/g, '')).not.toMatch(/\n/)
    const search = JSON.parse(
      (await cli(['search', '--profile', 'Acme Ltd', '--json', '--currency', 'NGN', '--status', 'successful'])).stdout
    ) as { total: number; totalCapped: boolean }
    expect(search.totalCapped).toBe(false)
    expect(lines.length - 2).toBe(search.total)
    expect(lines[0]).toMatch(/^"mode","id","reference",/)
    expect(lines[1]).toMatch(/^"test",/)
    expect(run.stdout).toContain(`Wrote ${search.total.toLocaleString('en-US')} payments`)
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([])
  })

  it('syncs by --base-url with the key only in the environment, and searches that cache by URL and mode', async () => {
    const synced = await cli(['sync', '--base-url', sandbox.baseUrl, '--resources', 'payments', '--no-pacing'])
    expect(synced.code, synced.stderr).toBe(0)
    const found = await cli(['search', '--base-url', sandbox.baseUrl, '--mode', 'test', '--json', 'TST-0000007'], {
      LEDGERLINE_API_KEY: ''
    })
    expect(found.code, found.stderr).toBe(0)
    expect((JSON.parse(found.stdout) as { total: number }).total).toBe(1)
    const live = await cli(['search', '--base-url', sandbox.baseUrl, '--mode', 'live', '--json'], { LEDGERLINE_API_KEY: '' })
    expect((JSON.parse(live.stdout) as { total: number }).total).toBe(0)
    const noMode = await cli(['search', '--base-url', sandbox.baseUrl], { LEDGERLINE_API_KEY: '' })
    expect(noMode.code).toBe(2)
    expect(noMode.stderr).toMatch(/--mode test\|live/)
  })

  it('stops a sync at once when the key is refused, says so in one line naming the profile, and leaves no --base-url profile behind', async () => {
    const profiles = async (): Promise<string[]> =>
      (JSON.parse((await cli(['profile', 'list', '--json'])).stdout) as { name: string }[]).map((p) => p.name)
    const before = await profiles()
    const refused = await cli(['sync', '--base-url', sandbox.baseUrl.replace('127.0.0.1', 'localhost'), '--no-pacing'], {
      LEDGERLINE_API_KEY: 'sk_test_thisKeyIsNotKnownToTheServer00'
    })
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^ledgerline: the server refused the key of http:\/\/localhost:\d+\/v1 \(from LEDGERLINE_API_KEY\) \(\w+\); nothing was synced after that/
      )
    ])
    expect(await profiles()).toEqual(before)
  })

  it('never writes the key to the database, its journal, the log, an export or any output', () => {
    const key = sandbox.keys.test
    const files = (readdirSync(dir, { recursive: true }) as string[]).map((f) => join(dir, f)).filter((f) => statSync(f).isFile())
    expect(files.some((f) => f.endsWith('cache.sqlite'))).toBe(true)
    const log = files.find((f) => f.endsWith('ledgerline.log'))
    expect(log, 'the CLI keeps a log beside the cache').toBeDefined()
    expect(readFileSync(log as string, 'utf8')).toMatch(/INFO cli: sync "Acme Ltd" finished/)
    for (const file of files) expect(readFileSync(file).includes(Buffer.from(key)), file).toBe(false)
    for (const run of outputs) {
      expect(run.stdout).not.toContain(key)
      expect(run.stderr).not.toContain(key)
    }
  })

  it('removes the profile with its records and its keychain entry', async () => {
    const run = await cli(['profile', 'remove', 'Acme Ltd'])
    expect(run.code).toBe(0)
    expect(await createOsKeychainStore(CLI_KEYCHAIN_SERVICE).get(profileId)).toBeNull()
    const left = await cli(['search', '--profile', 'Acme Ltd'])
    expect(left.code).toBe(2)
    expect(left.stderr).toMatch(/No profile called "Acme Ltd"/)
    expect(existsSync(db)).toBe(true)
  })
})
