// An accountant's day in Chromium, renderer → gate → host process: sync with progress, find records, export, profiles, cancel.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'
import { HANG_LIMIT_MS } from '../support/wait'

describe('workflow in Chromium', { timeout: 120_000 }, () => {
  let harness: RendererHarness
  let remote: Sandbox

  beforeAll(async () => {
    remote = await startSandbox({ payments: 60_000, rateLimits: false })
    harness = await startRendererHarness()
    await harness.page.goto(harness.baseUrl)
  })

  afterAll(async () => {
    await harness?.close()
    await remote?.close()
  })

  it('syncs the built-in Sandbox with per-resource progress and shows what the cache holds', async () => {
    const { page } = harness
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Sandbox')
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 60_000 })
    // The counts come with the sync status the screen reads again once the job has finished.
    await expect.poll(() => page.getByTestId('cached-payments').textContent()).toBe((5000).toLocaleString('en-US'))
    await expect
      .poll(async () => Number((await page.getByTestId('cached-subscriptions').textContent())?.replace(/\D/g, '')))
      .toBeGreaterThan(0)
    await expect.poll(() => page.getByTestId('sync-row-payments').textContent()).toContain('ok')
    await expect.poll(() => page.getByTestId('last-sync').textContent()).not.toBe('never')
    // What the sync cost: requests per resource.
    expect(Number((await page.getByTestId('requests-payments').textContent())?.replace(/\D/g, ''))).toBeGreaterThan(0)
    await harness.screenshot('overview-synced')
  })

  it('follows a transfer reference; a mistyped one fails alone, named, and can be unfollowed', async () => {
    const { page } = harness
    await page.getByTestId('follow-kind').click()
    await page.getByText('Transfer reference', { exact: true }).click()
    await page.getByTestId('follow-value').locator('input').fill('PAYOUT-T1-0000X')
    await page.getByTestId('follow-value').locator('input').press('Enter')
    await page.getByTestId('followed-PAYOUT-T1-0000X').waitFor()
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 60_000 })
    await expect.poll(() => page.getByTestId('result-transfers').textContent()).toContain('PAYOUT-T1-0000X')
    expect(await page.getByTestId('followed-PAYOUT-T1-0000X').textContent()).toContain('PAYOUT-T1-0000X')
    expect(await page.getByTestId('sync-row-payments').textContent()).toContain('ok')
    await harness.screenshot('overview-follow-failed')
    await page.getByTestId('unfollow-PAYOUT-T1-0000X').click()
    await expect.poll(() => page.getByTestId('followed-PAYOUT-T1-0000X').count()).toBe(0)
  })

  it('finds a record by reference, scrolls through results, and exports exactly what is filtered', async () => {
    const { page } = harness
    await page.getByTestId('nav-records').click()
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('5,000 payments')
    await page.getByTestId('search-text').locator('input').fill('TST-0000042')
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('1 payment')
    await expect.poll(() => page.getByTestId('record-table').textContent()).toContain('TST-0000042')
    await page.getByTestId('search-text').locator('input').fill('"AND( *')
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('0 payments')
    expect(await page.getByTestId('record-table-empty').textContent()).toContain('No payments match these filters')
    await page.getByTestId('search-text').locator('input').fill('okafor')
    await expect.poll(() => page.getByTestId('records-total').textContent()).toMatch(/^[1-9][\d,]* payments/)
    const matches = Number((await page.getByTestId('records-total').textContent())?.replace(/\D/g, ''))
    await page.getByTestId('row-0').locator('[role=gridcell]').first().waitFor()
    await harness.screenshot('records-search')
    // End reaches the last match; the table holds exactly the matches.
    await page.getByTestId('record-table-body').focus()
    await page.keyboard.press('End')
    await expect.poll(() => page.getByTestId(`row-${matches - 1}`).getAttribute('aria-selected')).toBe('true')
    expect(await page.getByTestId('record-table-body').getAttribute('aria-rowcount')).toBe(String(matches))

    await page.getByTestId('export').click()
    await page.getByText(/Exported [\d,]+ rows to /).waitFor()
    expect(harness.host.ui.saves).toMatchObject([
      { suggestedName: expect.stringMatching(/^ledgerline-payments-test-\d{4}-\d{2}-\d{2}\.csv$/), extensions: ['csv'] }
    ])
    const text = (await page.getByText(/Exported [\d,]+ rows to /).textContent()) ?? ''
    const file = text.slice(text.indexOf(' to ') + 4).trim()
    expect(existsSync(file)).toBe(true)
    const csv = readFileSync(file, 'utf8')
    expect(csv.charCodeAt(0)).toBe(0xfeff)
    const rows = Number(/Exported ([\d,]+) rows/.exec(text)?.[1]?.replace(/,/g, ''))
    expect(csv.split('\r\n').length - 2).toBe(rows)
    expect(csv.toLowerCase()).toContain('okafor')
  })

  it('creates a virtual account with the provider, refuses a bad amount, and sync refreshes it', async () => {
    const { page } = harness
    await page.getByTestId('nav-accounts').click()
    await page.getByTestId('va-name').locator('input').fill('Invoice 1042')
    await page.getByTestId('va-amount').locator('input').fill('2500.005')
    await page.getByTestId('va-submit').click()
    await expect.poll(() => page.getByTestId('va-error').textContent()).toContain('invalid_amount')
    await page.getByTestId('va-amount').locator('input').fill('2500.50')
    await page.getByTestId('va-submit').click()
    await page.getByTestId('va-list').locator('tbody tr').first().waitFor()
    const row = (await page.getByTestId('va-list').locator('tbody tr').first().textContent()) ?? ''
    expect(row).toContain('Invoice 1042')
    expect(row).toMatch(/NGN\s2,500\.50/)
    expect(row).toContain('temporary')
    await harness.screenshot('virtual-accounts')
    await page.getByTestId('nav-overview').click()
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 60_000 })
    expect(await page.getByTestId('cached-virtual_accounts').textContent()).toBe('1')
  })

  it('adds profiles with keys checked by the provider, refuses a wrong key, and marks live data', async () => {
    const { page } = harness
    await page.getByTestId('nav-profiles').click()
    const fill = async (name: string, key: string): Promise<void> => {
      await page.getByTestId('add-name').locator('input').fill(name)
      await page.getByTestId('add-base-url').locator('input').fill(remote.baseUrl)
      await page.getByTestId('add-key').locator('input').fill(key)
      await page.getByTestId('add-submit').click()
    }
    await fill('Wrong key', 'sk_test_definitely-wrong')
    await expect.poll(() => page.getByTestId('add-error').textContent()).toContain('invalid_credentials')
    // The banner's title is words; the code stays in its text, for support.
    expect(await page.getByTestId('add-error').locator('.n-alert-body__title').textContent()).toBe('The key was not accepted')
    expect(await page.getByTestId('add-key').locator('input').inputValue()).toBe('')

    await fill('Acme live', remote.keys.live)
    await page.getByTestId('profile-row-Acme live').waitFor()
    await fill('Acme test', remote.keys.test)
    await page.getByTestId('profile-row-Acme test').waitFor()
    const html = await page.content()
    expect(html).not.toContain(remote.keys.live)
    expect(html).not.toContain(remote.keys.test)

    // Switching to live data is confirmed in main's native dialog; saying no changes nothing.
    harness.host.ui.confirmAnswer = false
    await page.getByTestId('use-Acme live').click()
    await expect.poll(() => harness.host.ui.confirmations.length).toBe(1)
    expect(harness.host.ui.confirmations[0]).toMatchObject({
      title: 'Switch to a live profile?',
      message: expect.stringContaining('Acme live')
    })
    expect(await page.getByTestId('profile-name').textContent()).toBe('Sandbox')
    harness.host.ui.confirmAnswer = true
    await page.getByTestId('use-Acme live').click()
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Acme live')
    expect((await page.getByTestId('mode-badge').first().textContent())?.trim()).toBe('LIVE')
    await page.getByText('Live mode: these are real payments and payouts.').waitFor()
    await harness.screenshot('profiles-live')
  })

  // The resumed sync fetches 57,000 payments: it is given until the hang limit, however slow this machine is.
  it('cancels a long sync, keeping what was fetched, and resumes on the next', { timeout: HANG_LIMIT_MS + 120_000 }, async () => {
    const { page } = harness
    await page.getByTestId('use-Acme test').click()
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Acme test')
    await page.getByTestId('nav-overview').click()
    // The Sandbox answers 60 pages (3,000 payments) and then holds the sync's requests: it is still running whatever
    // this machine's speed, until the test lets more through.
    remote.faults.holdAfter(60)
    await page.getByTestId('sync-start').click()
    const fetched = async (): Promise<number> =>
      Number((await page.getByTestId('sync-row-payments').textContent())?.match(/([\d,]+) \/ 60,000/)?.[1]?.replace(/,/g, '') ?? 0)
    await expect.poll(fetched, { timeout: 30_000 }).toBeGreaterThan(2000)
    // A reloaded window picks the running sync up again (job:list), with its progress and its Cancel button.
    const beforeReload = await fetched()
    await page.reload()
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Acme test')
    // Twenty more pages (the held requests' connections close, and the sync asks again).
    remote.faults.release()
    remote.faults.holdAfter(20)
    await expect.poll(fetched, { timeout: 30_000 }).toBeGreaterThan(beforeReload)
    await page.getByTestId('sync-cancel').waitFor()
    // The header lists the running job; it opens from the keyboard too.
    await page.getByTestId('jobs-indicator').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('jobs-list').waitFor()
    expect(await page.getByTestId('jobs-list').textContent()).toMatch(/Sync of "Acme test".*Acme test.*payments: [\d,]+ \/ 60,000/)
    await harness.screenshot('jobs-running')
    await page.keyboard.press('Escape')
    await page.getByTestId('sync-cancel').click()
    await page.getByTestId('sync-cancelled').waitFor({ timeout: 30_000 })
    const cached = async (): Promise<number> => Number((await page.getByTestId('cached-payments').textContent())?.replace(/\D/g, ''))
    await expect.poll(cached).toBeGreaterThan(2000)
    expect(await cached()).toBeLessThan(60_000)
    await harness.screenshot('overview-cancelled')
    remote.faults.release()
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: HANG_LIMIT_MS })
    await expect.poll(() => page.getByTestId('cached-payments').textContent()).toBe((60_000).toLocaleString('en-US'))
  })

  it('ran with no page errors and no unexpected host failures', () => {
    expect(harness.pageErrors).toEqual([])
    expect(readFileSync(join(harness.host.config.paths.logs, 'ledgerline.log'), 'utf8')).not.toContain(' ERROR ')
  })
})
