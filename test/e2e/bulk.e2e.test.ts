// The payout file builder in Chromium: a deliberate mistake shown on its cell as it is typed, fixed, a bank picked, a block pasted, validated by the Sandbox, saved, followed, and statuses back with a retry file.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { providerCsv } from '../../src/shared/bulk/write'
import type { JobInfo } from '../../src/shared/ipc/contract'
import { valueOf } from '../support/app-env'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'

/**
 * Types into the grid at a person's pace: the grid drops a key pressed within a few tens of
 * milliseconds of the Tab that saved the cell before it (its editor is still closing).
 */
async function typeRow(page: Page, cells: string[]): Promise<void> {
  for (const [i, value] of cells.entries()) {
    if (i > 0) await page.keyboard.press('Tab')
    await page.waitForTimeout(150)
    if (value) await page.keyboard.type(value, { delay: 20 })
    await page.waitForTimeout(100)
  }
  await page.keyboard.press('Enter')
  await page.waitForTimeout(100)
}

const COLUMNS: Record<string, string[]> = {
  transfers: ['amount', 'currency', 'bank_code', 'branch_code', 'account_number', 'account_name', 'narration'],
  plans: ['title', 'frequency', 'amount', 'currency', 'internalReference', 'pricingOptions']
}

/** The grid cell of a spreadsheet row (header = 1) and spec column (the window is wide enough for every column). */
function cell(builder: Locator, row: number, column: string, kind: 'transfers' | 'plans' = 'transfers'): Locator {
  return builder.locator(`revogr-data[type="rgRow"][col-type="rgCol"] .rgCell[data-rgrow="${row - 2}"][data-rgcol="${(COLUMNS[kind] as string[]).indexOf(column)}"]`)
}

describe('bulk payout builder', { timeout: 180_000 }, () => {
  let harness: RendererHarness

  beforeAll(async () => {
    harness = await startRendererHarness()
    // The bank list the picker and the bank-code rule use.
    const job = valueOf(await harness.host.call('sync:start', { resources: ['banks'] })) as JobInfo
    for (let i = 0; i < 300 && (valueOf(await harness.host.call('job:list', undefined)) as JobInfo[]).find((j) => j.id === job.id)?.state === 'running'; i++) await new Promise((r) => setTimeout(r, 100))
    await harness.page.setViewportSize({ width: 1800, height: 900 })
    await harness.page.goto(`${harness.baseUrl}#/bulk`)
  })
  afterAll(async () => {
    await harness?.close()
  })

  it('builds, checks, fixes, validates, saves, follows and retries a payout file', async () => {
    const { page } = harness
    const builder = page.getByTestId('builder-transfers')
    const errors = builder.getByTestId('error-count')
    await builder.locator('revogr-data .rgCell').first().waitFor()

    // A mistake as the user types it: thousands separators in the amount.
    await cell(builder, 2, 'amount').click()
    await typeRow(page, ['5,000.00', 'NGN', '058', '', '0123456789', 'Adaeze Okafor', 'November salary'])
    await expect.poll(() => errors.textContent()).toBe('1 error(s)')
    const amount = cell(builder, 2, 'amount')
    await expect.poll(() => amount.getAttribute('class')).toContain('cell-error')
    expect(await amount.getAttribute('title')).toBe('Amount "5,000.00" has thousands separators; write 5000.00.')
    expect(await builder.getByTestId('validate-remote').isDisabled()).toBe(true)
    await harness.screenshot('bulk-mistake')

    // Fixed in place: the error goes as soon as the cell is saved.
    await amount.click()
    await page.keyboard.type('5000.00', { delay: 15 })
    await page.keyboard.press('Enter')
    await expect.poll(() => errors.textContent()).toBe('0 error(s)')
    await expect.poll(() => amount.getAttribute('class')).not.toContain('cell-error')

    // A second row from the keyboard, its bank chosen in the searchable picker (Alt+B).
    await page.keyboard.press('Control+Enter')
    await page.waitForTimeout(150)
    await typeRow(page, ['1250.50', 'NGN', '', '', '2233445599', 'Bola Ade', 'Refund 7'])
    expect(await builder.getByTestId('row-panel').locator('.n-card-header').textContent()).toBe('Row 3')
    await page.keyboard.press('Alt+b')
    await page.keyboard.type('Access', { delay: 15 })
    await expect.poll(() => page.evaluate<string>("document.querySelector('.n-base-select-option--pending')?.textContent ?? ''")).toContain('Access Bank (044)')
    await page.keyboard.press('Enter')
    await expect.poll(() => cell(builder, 3, 'bank_code').textContent()).toBe('044')

    // A block pasted from a spreadsheet adds the rows it needs.
    await page.keyboard.press('Control+Enter')
    await page.waitForTimeout(150)
    // What a spreadsheet puts on the clipboard: tab-separated cells (one with a stray space), CRLF after each row.
    await page.evaluate(`(() => {
      const data = new DataTransfer()
      data.setData('text/plain', '45.50\\t GHS\\t300303\\t030100\\t1234567890123\\tKofi Mensah\\tFees\\r\\n')
      document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }))
    })()`)
    await expect.poll(() => cell(builder, 4, 'account_name').textContent()).toBe('Kofi Mensah')
    await expect.poll(() => errors.textContent()).toBe('0 error(s)')
    await expect.poll(async () => (await builder.getByTestId('total').allTextContents()).map((t) => t.replace(/\s/g, ' '))).toEqual(['GHS 45.501 row(s)', 'NGN 6,250.502 row(s)'])

    // The Sandbox validates it (JSON body), then the file is saved exactly as the provider wants it.
    await builder.getByTestId('validate-remote').click()
    await expect.poll(() => builder.getByTestId('sent-result').textContent()).toContain('The provider found no problem in 3 row(s).')
    await page.keyboard.press('Control+s')
    await expect.poll(() => harness.host.ui.saves.length).toBe(1)
    const rows = [
      ['5000.00', 'NGN', '058', '', '0123456789', 'Adaeze Okafor', 'November salary'],
      ['1250.50', 'NGN', '044', '', '2233445599', 'Bola Ade', 'Refund 7'],
      ['45.50', 'GHS', '300303', '030100', '1234567890123', 'Kofi Mensah', 'Fees']
    ]
    const saved = join(harness.host.ui.exportDir, 'payouts.csv')
    await expect.poll(() => readFileSync(saved, 'utf8')).toBe(providerCsv('transfers', rows))

    // Followed: the Sandbox takes the file as the dashboard would; after a sync each row has its status.
    await builder.getByTestId('submit-sandbox').click()
    const status = page.getByTestId('sent-status')
    await status.waitFor()
    expect(await page.getByTestId('count-successful').textContent()).toBe('0 successful')
    await page.getByTestId('sync-transfers').click()
    await expect.poll(() => page.getByTestId('count-successful').textContent(), { timeout: 30_000 }).toBe('2 successful')
    expect(await page.getByTestId('count-failed').textContent()).toBe('1 failed')
    expect(await status.locator('tr.row-failed').innerText()).toContain('FAILED')
    await harness.screenshot('bulk-statuses')
    await page.getByTestId('save-retry').click()
    await expect.poll(() => harness.host.ui.saves.length).toBe(2)
    const retry = join(harness.host.ui.exportDir, 'payouts-retry.csv')
    await expect.poll(() => readFileSync(retry, 'utf8')).toBe(providerCsv('transfers', [rows[1] as string[]]))
    expect(harness.pageErrors).toEqual([])
  })

  it('builds a plan file: a wrong frequency shown on its cell, fixed with the picker, uploaded', async () => {
    const { page } = harness
    await page.locator('.n-tabs-tab', { hasText: 'Plan file' }).click()
    const builder = page.getByTestId('builder-plans')
    await builder.locator('revogr-data .rgCell').first().waitFor()
    await cell(builder, 2, 'title', 'plans').click()
    await typeRow(page, ['Gold Monthly', 'Monthly', '5000', 'NGN', 'LL-E2E-GOLD', 'NGN:5000;GHS:45'])
    const frequency = cell(builder, 2, 'frequency', 'plans')
    await expect.poll(() => frequency.getAttribute('class')).toContain('cell-error')
    expect(await frequency.getAttribute('title')).toContain('write monthly')
    expect(await builder.getByTestId('upload-plans').isDisabled()).toBe(true)

    await frequency.click()
    await page.keyboard.press('Alt+b')
    await page.waitForTimeout(100)
    await page.keyboard.type('month', { delay: 15 })
    await page.keyboard.press('Enter')
    await expect.poll(() => frequency.textContent()).toBe('monthly')
    await expect.poll(() => builder.getByTestId('error-count').textContent()).toBe('0 error(s)')
    await builder.getByTestId('upload-plans').click()
    await expect.poll(() => builder.getByTestId('sent-result').textContent()).toContain('The provider created 1 plan(s).')
    await harness.screenshot('bulk-plans')
    // Uploaded, its reference is taken: the same row again is refused on its cell.
    await expect.poll(() => frequency.getAttribute('class')).not.toContain('cell-error')
    await expect.poll(() => cell(builder, 2, 'internalReference', 'plans').getAttribute('class')).toContain('cell-error')
    expect(harness.pageErrors).toEqual([])
  })
})
