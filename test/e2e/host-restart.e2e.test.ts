// Acceptance for the two-process app: kill the service host during a sync in Chromium; the window survives, shows the error and
// the restart, and works afterwards, with what the sync saved still there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { valueOf } from '../support/app-env'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'

describe('the service host dies during a job', { timeout: 120_000 }, () => {
  let harness: RendererHarness
  let remote: Sandbox

  beforeAll(async () => {
    remote = await startSandbox({ payments: 40_000, rateLimits: false })
    harness = await startRendererHarness({ supervisor: { restarts: { max: 3, windowMs: 60_000, delayMs: 200 } } })
    const profile = valueOf(await harness.host.call('profile:add', { name: 'Acme test', baseUrl: remote.baseUrl, key: remote.keys.test }))
    valueOf(await harness.host.call('profile:select', { id: profile.id }))
    await harness.page.goto(harness.baseUrl)
  })

  afterAll(async () => {
    await harness?.close()
    await remote?.close()
  })

  it('fails the job with a clear code, restarts the host, and the app carries on', async () => {
    const { page } = harness
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Acme test')
    // 40 requests are answered and the rest held: the sync is running when the host is killed. How many of the answered
    // pages are written when the host dies depends on the machine (pages are requested ahead of the one being written; a
    // loaded CI machine once showed 600 after 30 s), so the test waits for the server to hold a request, the walk stuck at
    // a known point, and for some payments to be saved, never for a number of them.
    remote.faults.holdAfter(40)
    await page.getByTestId('sync-start').click()
    await expect.poll(() => remote.faults.heldRequests, { timeout: 60_000 }).toBeGreaterThan(0)
    await expect
      .poll(
        async () =>
          Number((await page.getByTestId('sync-row-payments').textContent())?.match(/([\d,]+) \/ 40,000/)?.[1]?.replace(/,/g, '') ?? 0),
        { timeout: 30_000 }
      )
      .toBeGreaterThan(0)
    await page.getByTestId('jobs-indicator').waitFor()

    const killed = harness.host.supervisor.pid as number
    process.kill(killed, 'SIGKILL')

    await page.getByTestId('sync-error').waitFor({ timeout: 20_000 })
    expect(await page.getByTestId('sync-error').textContent()).toContain('HOST_RESTARTED')
    await page
      .getByText(/The background service stopped \(signal SIGKILL\)/)
      .first()
      .waitFor()
    await harness.screenshot('host-restarted')
    await expect.poll(() => harness.host.supervisor.state, { timeout: 20_000 }).toBe('ready')
    expect(harness.host.supervisor.pid).not.toBe(killed)
    await page.getByText('The background service is running again.').waitFor()
    await expect.poll(() => page.getByTestId('host-status').count()).toBe(0)
    await expect.poll(() => page.getByTestId('jobs-indicator').count()).toBe(0)

    // Everything works again: the pages fetched before the kill are kept, and a new sync finishes the rest.
    // The count shows once the restarted host has answered the screen's reload of the sync status.
    const kept = async (): Promise<number> => Number((await page.getByTestId('cached-payments').textContent())?.replace(/\D/g, ''))
    await expect.poll(kept).toBeGreaterThan(0)
    remote.faults.release()
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 60_000 })
    await expect.poll(() => page.getByTestId('cached-payments').textContent()).toBe((40_000).toLocaleString('en-US'))
    await page.getByTestId('nav-about').click()
    await expect.poll(() => page.getByTestId('app-version').textContent()).toBe('Ledgerline 0.1.0-test')
    expect(harness.pageErrors).toEqual([])
  })
})
