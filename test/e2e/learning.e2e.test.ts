// Learning in Chromium, renderer → gate → host: a generated year decided month by month up to November (as sandbox year --decide --leave-last-open writes it into the app's cache), December's review showing a suggestion raised by what was confirmed before, in words, and the Rules dialog proposing the nickname with its gate figures: opened, tried on the closed months, saved not enabled, enabled, and deciding December's line at the next run, its version named.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'

const PROFILE = 'Sandbox year 2025 (seed 1)'

describe('learning in Chromium', { timeout: 180_000 }, () => {
  let harness: RendererHarness

  beforeAll(async () => {
    harness = await startRendererHarness()
    await harness.page.goto(harness.baseUrl)
    await harness.page.getByTestId('profile-name').waitFor()
    // The year, written and decided into the app's own cache while it runs, as the CLI does.
    const made = await runCli([
      'sandbox',
      'year',
      '--db',
      harness.host.config.paths.cacheDatabase,
      '--out',
      mkdtempSync(join(tmpdir(), 'ledgerline-year-')),
      '--decide',
      '--leave-last-open'
    ])
    expect(made.code, made.stderr).toBe(0)
  })

  afterAll(async () => {
    await harness?.close()
  })

  it('shows what was learned in a suggestion, and proposes the nickname as a rule the user saves and enables', async () => {
    const { page } = harness
    await page.goto(`${harness.baseUrl}#/profiles`)
    await page.getByTestId(`use-${PROFILE}`).click()
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe(PROFILE)
    type Api = { api: { recon: { sessions(): Promise<{ ok: boolean; value: { id: string; name: string }[] }> } } }
    const sessions = await page.evaluate(async () => (await (globalThis as unknown as Api).api.recon.sessions()).value)
    const december = sessions.find((s) => s.name === '2025-12') as { id: string }
    expect(december).toBeDefined()
    // The session held on its way while the filter is typed: what is typed meanwhile is the session's filter when it
    // comes (it was wiped, and every item shown, when the answer came after the typing).
    await page.evaluate(() => {
      const w = globalThis as unknown as Record<string, unknown>
      const invoke = w['__ledgerlineInvoke'] as (name: string, arg: unknown) => Promise<unknown>
      let release: () => void = () => undefined
      const held = new Promise<void>((resolve) => (release = resolve))
      w['__releaseSession'] = release
      w['__ledgerlineInvoke'] = (name: string, arg: unknown) =>
        name === 'recon:session' ? held.then(() => invoke(name, arg)) : invoke(name, arg)
    })
    await page.goto(`${harness.baseUrl}#/reconcile/${december.id}`)
    // December's line from "FEMI BAL": the suggestion the months before taught, and why, in words.
    await page.getByTestId('filter-text').locator('input').fill('FROM FEMI BAL')
    await page.evaluate(() => (globalThis as unknown as { __releaseSession(): void }).__releaseSession())
    await expect.poll(() => page.getByTestId('items-shown').textContent()).toBe('1–1 of 1')
    expect(await page.getByTestId('filter-text').locator('input').inputValue()).toBe('FROM FEMI BAL')
    await page.getByTestId('item-0').click()
    await expect
      .poll(() => page.getByTestId('selected-reasons').textContent())
      .toMatch(
        /learned: you confirmed "FEMI BAL" as the provider's Oluwafemi Balogun \(o\.balogun\d+@example\.com\) (\d+ times|twice|once) since January 2025/
      )
    await harness.screenshot('learning-suggestion-reasons')

    // The Rules dialog proposes it, with the gate's figures; nothing is saved or enabled by that.
    await page.getByTestId('review-rules').click()
    await page.getByTestId('rules-dialog').waitFor()
    const proposal = page.getByTestId('rule-proposed-alias-femi-bal')
    await expect.poll(() => proposal.textContent()).toMatch(/confirmed (\d+) of the \1 time\(s\) decided \(100%\), rejected 0 time\(s\)/)
    await page.getByTestId('rules-none').waitFor()
    await page.getByTestId('rule-open-alias-femi-bal').click()
    await expect
      .poll(() => page.getByTestId('rule-words').textContent())
      .toMatch(/pair the line with the provider's record whose customer is "o\.balogun\d+@example\.com"\.$/)
    await page.getByTestId('rule-try').click()
    await expect
      .poll(() => page.getByTestId('rule-preview').textContent())
      .toMatch(/"alias-femi-bal" would act on \d+ items?: \d+ as you decided them, 0 otherwise/)
    await harness.screenshot('learning-proposed-rule')
    await page.getByTestId('rule-save').click()
    await page.getByText('Added: alias-femi-bal (version 1, not enabled).').waitFor()
    await expect.poll(() => proposal.textContent()).toContain('saved')
    await page.getByTestId('rule-enabled-alias-femi-bal').click()
    await expect.poll(() => page.getByTestId('rule-enabled-alias-femi-bal').getAttribute('aria-checked')).toBe('true')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('rules-dialog').count()).toBe(0)

    // Run again: the enabled rule pairs the line, named with its version.
    await page.getByTestId('review-rerun').click()
    type Items = { api: { recon: { items(a: unknown): Promise<{ ok: boolean; value: { items: { decidedBy: string | null }[] } }> } } }
    await expect
      .poll(
        async () =>
          (
            await page.evaluate(
              async ([id]) => (await (globalThis as unknown as Items).api.recon.items({ sessionId: id, text: 'FEMI BAL' })).value.items,
              [december.id] as const
            )
          ).map((i) => i.decidedBy),
        { timeout: 60_000 }
      )
      .toContain('rule "alias-femi-bal" (version 1)')
    // On screen the pairing is the rule's, not the user's by hand.
    await page.getByTestId('filter-text').locator('input').fill('FROM FEMI BAL')
    await expect.poll(() => page.getByTestId('item-decision').first().textContent()).toBe(' ⚙ by rule "alias-femi-bal" (version 1)')
    await page.getByTestId('item-decision').first().scrollIntoViewIfNeeded()
    // The actions of the selected item are those of a pairing now (the suggestion's Accept and Reject gone, not shown as copies of another).
    await page.getByTestId('action-unmatch').waitFor()
    expect(await page.locator('.actions button').allTextContents()).toEqual([
      'Unmatch (u)',
      'Note (n)',
      'Pick for a match (x)',
      'Adjustment…',
      'Undo (z)',
      'Details and history (Enter)'
    ])
    await harness.screenshot('learning-rule-pairing')
    expect(harness.pageErrors).toEqual([])
  })
})
