// The reconciliation flow with the keyboard only, in Chromium: sync, sample statement, import, match, accept, match a settlement by hand, note, close, report, reopen; focus always visible (the pixels around each focused control change when it loses focus).
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settled, startRendererHarness, type RendererHarness } from '../support/renderer-harness'

/**
 * Whether the focused element looks focused: the pixels in and around it (an outline or ring draws outside its box) differ
 * from the same place once it lost focus. Focus then goes back to it, as it was (focus-visible, since the keyboard moved it).
 */
async function focusShows(page: Page): Promise<boolean> {
  // Where it settles: a dialog's button measured while the dialog still grows in is a dot.
  await settled(page)
  const box = await page.evaluate<{ x: number; y: number; width: number; height: number }>(`(() => {
    const r = document.activeElement.getBoundingClientRect()
    return { x: r.x, y: r.y, width: r.width, height: r.height }
  })()`)
  const clip = { x: Math.max(0, box.x - 6), y: Math.max(0, box.y - 6), width: box.width + 12, height: box.height + 12 }
  // A toast passing over the control (a sync's "done", bottom right where a dialog's buttons are) comes and goes on its
  // own clock: it is hidden while the two pictures are taken, so only the focus can tell them apart.
  const toasts = `document.querySelectorAll('.n-message-container, .n-notification-container').forEach((t) => { t.style.visibility = '%' })`
  const shot = async (): Promise<Buffer> => {
    await settled(page)
    return page.screenshot({ clip, animations: 'disabled', caret: 'hide' })
  }
  await page.evaluate(toasts.replace('%', 'hidden'))
  try {
    const focused = await shot()
    await page.evaluate(`(() => { window.__focusCheck = document.activeElement; document.activeElement.blur() })()`)
    const unfocused = await shot()
    await page.evaluate(`window.__focusCheck.focus({ focusVisible: true })`)
    return !focused.equals(unfocused)
  } finally {
    await page.evaluate(toasts.replace('%', ''))
  }
}

/** Presses Tab until the focused element's text (or test id) matches, as a keyboard user would; fails after 80 presses. */
async function tabTo(page: Page, wanted: RegExp): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab')
    const focused = await page.evaluate<string>(`(() => {
      const el = document.activeElement
      return el ? [el.getAttribute('data-testid') ?? '', el.innerText ?? '', el.getAttribute('placeholder') ?? ''].join(' ').trim() : ''
    })()`)
    if (wanted.test(focused)) {
      expect(await focusShows(page), `focus on ${focused} is visible`).toBe(true)
      return
    }
  }
  throw new Error(`Tab never reached ${wanted}`)
}

/** Picks an option of the focused select by typing part of its label (the outcome filter is searchable) and Enter. */
async function chooseOption(page: Page, typed: string, label: RegExp): Promise<void> {
  await page.keyboard.press('Enter')
  await page.keyboard.press('Control+a')
  await page.keyboard.type(typed)
  await expect
    .poll(() => page.evaluate<string>("document.querySelector('.n-base-select-option--pending')?.textContent ?? ''"))
    .toMatch(label)
  await page.keyboard.press('Enter')
}

const chip = async (page: Page, label: string): Promise<number> =>
  Number(new RegExp(`${label} (\\d+)`).exec((await page.getByTestId('summary-bar').textContent()) ?? '')?.[1] ?? 0)
const selectedRow = (page: Page): Promise<string> => page.locator('tr.row-selected').first().innerText()

describe('reconciliation with the keyboard only', { timeout: 180_000 }, () => {
  let harness: RendererHarness

  beforeAll(async () => {
    harness = await startRendererHarness()
    await harness.page.goto(harness.baseUrl)
  })
  afterAll(async () => {
    await harness?.close()
  })

  it('runs the whole flow without the mouse', async () => {
    const { page } = harness
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Sandbox')
    await tabTo(page, /^sync-start/)
    await page.keyboard.press('Enter')
    await page.getByTestId('sync-done').waitFor({ timeout: 90_000 })

    await tabTo(page, /^nav-reconcile/)
    await page.keyboard.press('Enter')
    // ? lists the sessions screen's keys, from the same table that answers them.
    await page.getByTestId('recon-import').waitFor()
    await page.keyboard.press('?')
    await page.getByTestId('shortcuts').waitFor()
    expect(await page.getByTestId('shortcuts').innerText()).toMatch(/open the session[\s\S]*import a statement[\s\S]*next period/)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('shortcuts').count()).toBe(0)
    await tabTo(page, /^recon-sample/)
    await page.keyboard.press('Enter')
    await page.getByTestId('import-wizard').waitFor()
    await tabTo(page, /^wizard-import/)
    await page.keyboard.press('Enter')
    await page.getByTestId('new-name').waitFor()
    await tabTo(page, /^new-create/)
    await page.keyboard.press('Enter')
    await page.getByTestId('review').waitFor()
    await expect.poll(() => page.getByTestId('summary-exceptions').textContent(), { timeout: 60_000 }).toMatch(/to review/)

    // ? lists every shortcut.
    await page.keyboard.press('?')
    await page.getByTestId('shortcuts').waitFor()
    expect(await page.getByTestId('shortcuts').innerText()).toMatch(
      /accept the suggestion[\s\S]*match the picked items by hand[\s\S]*undo the last decision/
    )
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('shortcuts').count()).toBe(0)

    // / goes to the filters: only the suggestions; the payer without a reference is accepted with a.
    await page.keyboard.press('/')
    await chooseOption(page, 'sugg', /^Suggested \(2\)$/)
    await expect.poll(() => page.getByTestId('items-shown').textContent()).toBe('1–2 of 2')
    // Escape hands the keyboard from the filters back to the list.
    await page.keyboard.press('Escape')
    if (/\d+ records, total/.test(await selectedRow(page))) await page.keyboard.press('j')
    expect(await selectedRow(page)).not.toMatch(/records, total/)
    await page.keyboard.press('a')
    await expect.poll(() => chip(page, 'Suggested')).toBe(1)

    // The settlement group is rejected with r, then matched by hand: the line and the day's mobile-money payments.
    await expect.poll(() => selectedRow(page)).toMatch(/records, total/)
    await page.keyboard.press('r')
    await expect.poll(() => chip(page, 'Suggested')).toBe(0)
    await page.keyboard.press('/')
    await chooseOption(page, 'all', /^All items/)
    await page.keyboard.press('Tab')
    await page.keyboard.type('momo settlement')
    await expect.poll(() => page.getByTestId('items-shown').textContent()).toBe('1–1 of 1')
    await page.keyboard.press('Escape')
    await page.keyboard.press('x')
    await page.getByTestId('hand-bar').waitFor()
    await page.keyboard.press('/')
    await chooseOption(page, 'only at', /^Only at the provider/)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Control+a')
    await page.keyboard.type('mobile_money')
    await expect
      .poll(async () => Number(/of (\d+)/.exec((await page.getByTestId('items-shown').textContent()) ?? '')?.[1]))
      .toBeGreaterThan(1)
    await page.keyboard.press('Escape')
    const rows = await page.getByTestId('items-table').locator('tbody tr').count()
    for (let i = 0; i < rows; i++) {
      // Pending payments were never settled: leave them out.
      if (!/pending/.test(await selectedRow(page))) await page.keyboard.press('x')
      await page.keyboard.press('j')
    }
    await expect.poll(() => page.getByTestId('hand-difference').textContent()).toMatch(/difference (NGN\s?|₦)0\.00/)
    await harness.screenshot('reconcile-keyboard-hand-match')
    await page.keyboard.press('m')
    await tabTo(page, /^Match$/)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('hand-bar').count()).toBe(0)
    // The dialog has gone (and handed the focus back) before the next key.
    await expect.poll(() => page.locator('.n-dialog').count()).toBe(0)
    await page.keyboard.press('/')
    await chooseOption(page, 'all', /^All items/)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Control+a')
    await page.keyboard.type('momo settlement')
    await expect.poll(() => page.getByTestId('items-table').innerText()).toMatch(/by hand/)
    await page.keyboard.press('Escape')

    // The amount that differs gets a note with n.
    await page.keyboard.press('/')
    await chooseOption(page, 'amount', /^Amount differs/)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Control+a')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('items-shown').textContent()).toBe('1–1 of 1')
    await page.keyboard.press('n')
    await page.getByTestId('note-text').waitFor()
    await page.keyboard.type('Short credit; claim raised with the bank')
    await page.keyboard.press('Control+Enter')
    await expect.poll(() => page.getByTestId('items-table').innerText()).toContain('Short credit; claim raised')

    // Close (main asks), report, reopen with a reason, history one key away.
    await tabTo(page, /^review-close/)
    await page.keyboard.press('Enter')
    await page.getByTestId('review-locked').waitFor()
    await tabTo(page, /^export-items/)
    await page.keyboard.press('Enter')
    await page.getByText(/Report written to /).waitFor()
    const file = ((await page.getByText(/Report written to /).textContent()) ?? '').replace(/^Report written to /, '').trim()
    expect(readFileSync(file, 'utf8')).toContain('Short credit; claim raised with the bank')
    await tabTo(page, /^review-reopen/)
    await page.keyboard.press('Enter')
    await page.getByTestId('reopen-reason').waitFor()
    await page.keyboard.type('Corrected statement received')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('review-locked').count()).toBe(0)
    // The dialog closes once the session has been read again; until then Enter is still the dialog's.
    await page.getByTestId('reopen-reason').waitFor({ state: 'detached' })
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('session-history').textContent()).toContain('Corrected statement received')
    await page.keyboard.press('Escape')
    expect(harness.pageErrors).toEqual([])
  })

  it('tells a focus that shows from one that does not', async () => {
    const { page } = harness
    // Two plain buttons: one with the browser's own focus ring, one whose focus draws nothing.
    await page.evaluate(`(() => {
      for (const [id, style] of [['ring', ''], ['bare', 'outline: none; box-shadow: none']]) {
        const b = document.createElement('button')
        b.id = id
        b.textContent = id
        b.setAttribute('style', 'position: fixed; z-index: 2147483647; top: 300px; left: ' + (id === 'ring' ? 400 : 600) + 'px; ' + style)
        document.body.append(b)
      }
    })()`)
    await page.evaluate(`document.getElementById('ring').focus({ focusVisible: true })`)
    expect(await focusShows(page)).toBe(true)
    await page.evaluate(`document.getElementById('bare').focus({ focusVisible: true })`)
    expect(await focusShows(page)).toBe(false)
  })
})
