// Every screen and dialog the other browser tests do not reach, shot as the user sees it (1280×720 and 1920×1080, light and dark, each checked for accessibility and for toasts over the content): the record tabs, the shortcut lists, the review folded and whole, its note and adjustment dialogs and shortcuts, the bulk builder's empty file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECORD_RESOURCES } from '../../src/shared/records'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'

describe('every screen in Chromium', { timeout: 240_000 }, () => {
  let harness: RendererHarness

  beforeAll(async () => {
    harness = await startRendererHarness()
    await harness.page.goto(harness.baseUrl)
  })
  afterAll(async () => {
    await harness?.close()
  })

  it('shows each record tab with its rows, and the shortcut list', async () => {
    const { page } = harness
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Sandbox')
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 90_000 })
    await page.getByTestId('nav-records').click()
    for (const resource of RECORD_RESOURCES) {
      if (resource === 'payments') continue
      await page.getByTestId(`tab-${resource}`).click()
      // Its rows, or what it says when the Sandbox has none of them.
      await page.locator('[data-testid="row-0"] [role=gridcell], [data-testid="record-table-empty"]').first().waitFor()
      await harness.screenshot(`records-${resource}`)
    }
    await page.getByTestId('tab-payments').click()
    await page.keyboard.press('F1')
    await page.getByTestId('shortcuts').waitFor()
    await harness.screenshot('records-shortcuts')
    await page.keyboard.press('Escape')
    await page.getByTestId('shortcuts').waitFor({ state: 'hidden' })
    expect(harness.pageErrors).toEqual([])
  })

  it('shows the review folded and whole, and its dialogs: a note, an adjustment, the shortcuts', async () => {
    const { page } = harness
    await page.getByTestId('nav-reconcile').click()
    await page.getByTestId('recon-sample').click()
    await page.getByTestId('wizard-import').click()
    await page.getByTestId('new-create').click()
    await expect.poll(() => page.getByTestId('summary-exceptions').textContent(), { timeout: 60_000 }).toMatch(/to review/)
    await harness.screenshot('reconcile-review-folded')
    await page.keyboard.press('d')
    await expect.poll(() => page.getByTestId('summary-toggle').getAttribute('aria-expanded')).toBe('true')
    await harness.screenshot('reconcile-review-whole')
    await page.keyboard.press('d')

    await page.getByTestId('item-0').click()
    await page.keyboard.press('n')
    await page.getByTestId('note-text').waitFor()
    await harness.screenshot('reconcile-note')
    await page.keyboard.press('Escape')
    await page.getByTestId('action-adjust').click()
    await page.getByTestId('adjust-amount').waitFor()
    await harness.screenshot('reconcile-adjustment')
    await page.keyboard.press('Escape')
    await page.getByTestId('adjust-amount').waitFor({ state: 'hidden' })
    await page.keyboard.press('?')
    await page.getByTestId('shortcuts').waitFor()
    await harness.screenshot('reconcile-shortcuts')
    await page.keyboard.press('Escape')
    expect(harness.pageErrors).toEqual([])
  })

  it('shows the bulk builder’s empty payout file and the sent files', async () => {
    const { page } = harness
    await page.getByTestId('nav-bulk').click()
    await page.getByTestId('builder-transfers').locator('revogr-data .rgCell').first().waitFor()
    await harness.screenshot('bulk-empty')
    await page.locator('.n-tabs-tab', { hasText: 'Sent files' }).click()
    await harness.screenshot('bulk-sent-none')
    await page.getByTestId('nav-profiles').click()
    await harness.screenshot('profiles-sandbox')
    expect(harness.pageErrors).toEqual([])
  })
})
