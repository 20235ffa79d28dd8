// The payout file builder in Chromium: a deliberate mistake shown on its cell as it is typed, fixed, a bank picked, a block pasted, validated by the Sandbox, saved, followed, and statuses back with a retry file.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Papa from 'papaparse'
import { syncAndWait } from '../support/app-env'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'

/** Where the grid's cursor is, and its open editor's text (null: no editor) and whether the editor has the keyboard. */
interface GridState {
  x: number | null
  y: number | null
  editor: string | null
  typing: boolean
}

/** The builder on screen: transfers or plans. */
let kind: 'transfers' | 'plans' = 'transfers'

function gridState(page: Page): Promise<GridState> {
  return page.evaluate<GridState>(`(async () => {
    const grid = document.querySelector('[data-testid="builder-${kind}"] revo-grid')
    const focused = await grid?.getFocused()
    const input = grid?.querySelector('revogr-edit input')
    return { x: focused?.cell?.x ?? null, y: focused?.cell?.y ?? null, editor: input ? input.value : null, typing: !!input && document.activeElement === input }
  })()`)
}

/**
 * Waits until the grid's cursor rests on a cell with no editor: the grid closes an editor over a few frames, and until it
 * has, a key pressed is lost and the closing editor takes the keyboard back from a picker.
 */
async function settled(page: Page, at: { x: number; y: number }): Promise<void> {
  await expect.poll(() => gridState(page)).toEqual({ ...at, editor: null, typing: false })
}

/** Types a value into the cell under the cursor: the first key opens its editor, the rest go in once the editor has the keyboard. */
async function typeCell(page: Page, value: string): Promise<void> {
  await page.keyboard.type(value.slice(0, 1))
  await expect.poll(async () => (await gridState(page)).typing).toBe(true)
  await page.keyboard.type(value.slice(1))
  await expect.poll(async () => (await gridState(page)).editor).toBe(value)
}

/**
 * Types a row from the cell under the cursor, Tab between cells and Enter after the last, each step once the grid is ready
 * for it; with `pressEnter` false the last cell's editor is left open.
 */
async function typeRow(page: Page, cells: string[], pressEnter = true): Promise<void> {
  const start = await gridState(page)
  const at = (i: number): { x: number; y: number } => ({ x: (start.x as number) + i, y: start.y as number })
  for (const [i, value] of cells.entries()) {
    if (i > 0) await page.keyboard.press('Tab')
    await settled(page, at(i))
    if (value) await typeCell(page, value)
  }
  if (!pressEnter) return
  await page.keyboard.press('Enter')
  await expect.poll(async () => (await gridState(page)).editor).toBe(null)
}

/** Waits until the keyboard is in a picker's search (Alt+B moves it there). */
async function inPicker(page: Page, testId: string): Promise<void> {
  await expect.poll(() => page.evaluate(`document.activeElement?.closest('[data-testid="${testId}"]') !== null`)).toBe(true)
}

const COLUMNS: Record<string, string[]> = {
  transfers: ['amount', 'currency', 'bank_code', 'branch_code', 'account_number', 'account_name', 'narration'],
  plans: ['title', 'frequency', 'amount', 'currency', 'internalReference', 'pricingOptions']
}

/** The grid cell of a spreadsheet row (header = 1) and spec column (the window is wide enough for every column). */
function cell(builder: Locator, row: number, column: string, kind: 'transfers' | 'plans' = 'transfers'): Locator {
  return builder.locator(
    `revogr-data[type="rgRow"][col-type="rgCol"] .rgCell[data-rgrow="${row - 2}"][data-rgcol="${(COLUMNS[kind] as string[]).indexOf(column)}"]`
  )
}

describe('bulk payout builder', { timeout: 180_000 }, () => {
  let harness: RendererHarness

  beforeAll(async () => {
    harness = await startRendererHarness()
    // The bank list the picker and the bank-code rule use.
    await syncAndWait(harness.host, ['banks'])
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
    await settled(page, { x: 0, y: 0 })
    await typeRow(page, ['5,000.00', 'NGN', '058', '', '0123456789', 'Adaeze Okafor', 'November salary'])
    await expect.poll(() => errors.textContent()).toBe('1 error(s)')
    const amount = cell(builder, 2, 'amount')
    await expect.poll(() => amount.getAttribute('class')).toContain('cell-error')
    expect(await amount.getAttribute('title')).toBe('Amount "5,000.00" has thousands separators; write 5000.00.')
    expect(await builder.getByTestId('validate-remote').isDisabled()).toBe(true)
    await harness.screenshot('bulk-mistake')

    // Fixed in place: the error goes as soon as the cell is saved.
    await amount.click()
    await settled(page, { x: 0, y: 0 })
    await typeCell(page, '5000.00')
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await gridState(page)).editor).toBe(null)
    await expect.poll(() => errors.textContent()).toBe('0 error(s)')
    await expect.poll(() => amount.getAttribute('class')).not.toContain('cell-error')

    // A second row from the keyboard, its bank chosen in the searchable picker (Alt+B).
    await page.keyboard.press('Control+Enter')
    await settled(page, { x: 0, y: 1 })
    await typeRow(page, ['1250.50', 'NGN', '', '', '2233445599', 'Bola Ade', 'Refund 7'], false)
    expect(await builder.getByTestId('row-panel').locator('.n-card-header').textContent()).toBe('Row 3')
    // Enter, Alt+B and the search typed at once, as fast as keys go: the grid's editor is still closing when the picker
    // opens, and no key is lost to it or to the cell (it took the keyboard back, and the search got nothing).
    await page.keyboard.press('Enter')
    await page.keyboard.press('Alt+b')
    await page.keyboard.type('Access')
    await inPicker(page, 'pick-bank')
    await expect.poll(() => page.evaluate<string>("document.activeElement?.value ?? ''")).toBe('Access')
    await expect.poll(async () => (await gridState(page)).editor).toBe(null)
    expect(await cell(builder, 3, 'narration').textContent()).toBe('Refund 7')
    await expect
      .poll(() => page.evaluate<string>("document.querySelector('.n-base-select-option--pending')?.textContent ?? ''"))
      .toContain('Access Bank (044)')
    await page.keyboard.press('Enter')
    await expect.poll(() => cell(builder, 3, 'bank_code').textContent()).toBe('044')

    // A block pasted from a spreadsheet adds the rows it needs.
    await page.keyboard.press('Control+Enter')
    await settled(page, { x: 0, y: 2 })
    // What a spreadsheet puts on the clipboard: tab-separated cells (one with a stray space), CRLF after each row.
    await page.evaluate(`(() => {
      const data = new DataTransfer()
      data.setData('text/plain', '45.50\\t GHS\\t300303\\t030100\\t1234567890123\\tKofi Mensah\\tFees\\r\\n')
      document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }))
    })()`)
    await expect.poll(() => cell(builder, 4, 'account_name').textContent()).toBe('Kofi Mensah')
    await expect.poll(() => errors.textContent()).toBe('0 error(s)')
    await expect
      .poll(async () => (await builder.getByTestId('total').allTextContents()).map((t) => t.replace(/\s/g, ' ')))
      .toEqual(['GHS 45.501 row(s)', 'NGN 6,250.502 row(s)'])

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
    // The file as the provider's template has it, written out by hand (UTF-8, no BOM, CRLF, its columns in its order)…
    const header = 'amount,currency,bank_code,branch_code,account_number,account_name,narration\r\n'
    const saved = join(harness.host.ui.exportDir, 'payouts.csv')
    await expect
      .poll(() => readFileSync(saved, 'utf8'))
      .toBe(
        header +
          '5000.00,NGN,058,,0123456789,Adaeze Okafor,November salary\r\n' +
          '1250.50,NGN,044,,2233445599,Bola Ade,Refund 7\r\n' +
          '45.50,GHS,300303,030100,1234567890123,Kofi Mensah,Fees\r\n'
      )
    // …and as another CSV reader (papaparse) reads it: the rows typed, cell for cell.
    expect(Papa.parse<string[]>(readFileSync(saved, 'utf8').trimEnd(), { delimiter: ',' }).data).toEqual([COLUMNS['transfers'], ...rows])

    // Followed: the Sandbox takes the file as the dashboard would; after a sync each row has its status.
    await builder.getByTestId('submit-sandbox').click()
    const status = page.getByTestId('sent-status')
    await status.waitFor()
    expect(await page.getByTestId('count-successful').textContent()).toBe('0 successful')
    await page.getByTestId('sync-transfers').click()
    await expect.poll(() => page.getByTestId('count-successful').textContent(), { timeout: 30_000 }).toBe('2 successful')
    expect(await page.getByTestId('count-failed').textContent()).toBe('1 failed')
    // The provider's FAILED in the one form statuses take on every screen; the amount with its separators.
    expect(await status.locator('tr.row-failed').innerText()).toMatch(/NGN\s1,250\.50\s+044\s+2233445599\s+Bola Ade\s+failed\s/)
    await harness.screenshot('bulk-statuses')
    await page.getByTestId('save-retry').click()
    await expect.poll(() => harness.host.ui.saves.length).toBe(2)
    const retry = join(harness.host.ui.exportDir, 'payouts-retry.csv')
    await expect.poll(() => readFileSync(retry, 'utf8')).toBe(`${header}1250.50,NGN,044,,2233445599,Bola Ade,Refund 7\r\n`)
    expect(harness.pageErrors).toEqual([])
  })

  it('builds a plan file: a wrong frequency shown on its cell, fixed with the picker, uploaded', async () => {
    const { page } = harness
    await page.locator('.n-tabs-tab', { hasText: 'Plan file' }).click()
    kind = 'plans'
    const builder = page.getByTestId('builder-plans')
    await builder.locator('revogr-data .rgCell').first().waitFor()
    await cell(builder, 2, 'title', 'plans').click()
    await settled(page, { x: 0, y: 0 })
    await typeRow(page, ['Gold Monthly', 'Monthly', '5000', 'NGN', 'LL-E2E-GOLD', 'NGN:5000;GHS:45'])
    const frequency = cell(builder, 2, 'frequency', 'plans')
    await expect.poll(() => frequency.getAttribute('class')).toContain('cell-error')
    expect(await frequency.getAttribute('title')).toContain('write monthly')
    expect(await builder.getByTestId('upload-plans').isDisabled()).toBe(true)

    await frequency.click()
    await page.keyboard.press('Alt+b')
    await inPicker(page, 'pick-frequency')
    await page.keyboard.type('month')
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
