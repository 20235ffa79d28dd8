// The Backups card in Chromium: the day's backup listed when the app opens, a backup taken from the keyboard, and a restore asked first by main after which the window opens the restored cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { testHostConfig } from '../support/app-env'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'

describe('the Backups card', () => {
  let harness: RendererHarness
  const config = testHostConfig()

  beforeAll(async () => {
    // The accountant's books: a profile of theirs, so the day's backup is due when the app opens.
    const db = openCache(config.paths.cacheDatabase)
    db.prepare(
      "insert into profiles (id, name, base_url, mode, created_at) values ('p-books', 'Acme books', null, 'test', '2026-01-01')"
    ).run()
    db.close()
    harness = await startRendererHarness({ config })
  })
  afterAll(async () => {
    await harness?.close()
  })

  it('lists the day’s backup, takes one from the keyboard, and restores one after main asks', async () => {
    const { page } = harness
    await page.goto(harness.baseUrl)
    await page.getByTestId('nav-profiles').click()
    const card = page.getByTestId('backups-card')
    await card.waitFor()
    await expect.poll(() => card.locator('tbody tr').count(), { timeout: 20_000 }).toBe(1)
    expect(await card.locator('tbody tr').first().textContent()).toMatch(/the day’s backup.*2 profile\(s\), 0 session\(s\)/)
    await page.getByTestId('backup-now').focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => card.locator('tbody tr').count()).toBe(2)
    expect(await card.locator('tbody tr').first().textContent()).toMatch(/taken by you/)
    await card.scrollIntoViewIfNeeded()
    await harness.screenshot('profiles-backups')

    // The profile removed behind the app's back; the newest backup still holds it.
    const db = openCache(config.paths.cacheDatabase)
    db.prepare("delete from profiles where id = 'p-books'").run()
    db.close()
    harness.host.ui.confirmAnswer = true
    await card
      .locator('tbody tr')
      .first()
      .getByRole('button', { name: /Restore the backup taken/ })
      .click()
    await expect.poll(() => harness.host.ui.confirmations.at(-1)?.title).toBe('Restore this backup?')
    // The window reloads on the restored cache: the profile is back, and the cache as it was is the newest backup.
    await page.getByTestId('nav-profiles').click()
    await page.getByTestId('profile-row-Acme books').waitFor({ timeout: 20_000 })
    await expect
      .poll(() => page.getByTestId('backups-card').locator('tbody tr').first().textContent(), { timeout: 20_000 })
      .toMatch(/the cache as it was before a restore/)
    expect(harness.pageErrors).toEqual([])
  }, 120_000)
})
