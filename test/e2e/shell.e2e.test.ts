// End to end in Chromium: the renderer shell calls main's gate through window.api, the host process answers, the page shows it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'

describe('renderer shell in Chromium', { timeout: 60_000 }, () => {
  let harness: RendererHarness

  beforeAll(async () => {
    harness = await startRendererHarness()
    await harness.page.goto(harness.baseUrl)
  })

  afterAll(async () => {
    await harness?.close()
  })

  it('opens on the built-in Sandbox profile with a TEST badge', async () => {
    const { page } = harness
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Sandbox')
    expect((await page.getByTestId('mode-badge').first().textContent())?.trim()).toBe('TEST')
    expect(await page.getByTestId('overview-profile').textContent()).toContain('Built-in Sandbox')
  })

  it('round trip: clicking About calls app:info through the gate and the host process, and renders the real answer', async () => {
    const { page } = harness
    const env = harness.host.config
    await page.getByTestId('nav-about').click()
    await expect.poll(() => page.getByTestId('app-version').textContent()).toBe('Ledgerline 0.1.0-test')
    expect(await page.getByTestId('path-user-data').textContent()).toBe(env.paths.userData)
    expect(await page.getByTestId('path-cache').textContent()).toBe(env.paths.cacheDatabase)
    const runtime = (await page.getByTestId('runtime').textContent()) ?? ''
    expect(runtime).toContain(`Node ${process.versions.node}`)
    expect(runtime).toMatch(/SQLite 3\.\d+\.\d+/)
    expect(new URL(page.url()).hash).toBe('#/about')
    await harness.screenshot('shell-about')
  })

  it('shows an event main sends, through the typed event channel', async () => {
    const { page } = harness
    harness.events.emit('app:notice', { level: 'warning', message: 'Blocked a link to https://example.invalid/' })
    await expect.poll(() => page.getByText('Blocked a link to https://example.invalid/').count()).toBe(1)
    await harness.screenshot('shell-notice')
  })

  it('page cannot reach main except through the named calls', async () => {
    const { page } = harness
    // These run in the page, where globalThis is the window.
    const keys = await page.evaluate(() => Object.keys((globalThis as unknown as { api: object }).api).sort())
    expect(keys).toEqual([
      'accounts',
      'app',
      'audit',
      'backup',
      'bulk',
      'export',
      'job',
      'journal',
      'on',
      'profile',
      'recon',
      'records',
      'rules',
      'search',
      'sync',
      'team'
    ])
    const forged = await page.evaluate(() =>
      (globalThis as unknown as { __ledgerlineInvoke(n: string, a: unknown): Promise<unknown> }).__ledgerlineInvoke('fs:write', {
        path: '/tmp/x'
      })
    )
    expect(forged).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } })
  })

  it('ran under the CSP with no console or page errors, and no unexpected host failures', () => {
    expect(harness.pageErrors).toEqual([])
    const log = readFileSync(join(harness.host.config.paths.logs, 'ledgerline.log'), 'utf8')
    expect(log).not.toContain(' ERROR ')
  })
})
