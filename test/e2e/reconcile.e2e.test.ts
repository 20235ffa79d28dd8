// Reconciling in Chromium, renderer → gate → host process: the Sandbox's sample statement through the wizard, review, decisions, close, report, reopen.
import { sandboxSeed } from '../../src/sandbox/seed'
import { sampleStatement } from '../../src/sandbox/statement'
import { parseMajor } from '../../src/shared/money'
import { systemTimeZone } from '../../src/shared/time'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'
import { readExcelCsv } from '../support/excel-csv'
import { readFileSync } from 'node:fs'
import { readPdfText } from '../../src/main/reconcile/import/pdf'
import { verifyEvidencePack } from '../../src/main/reconcile/evidence'

describe('reconciliation in Chromium', { timeout: 180_000 }, () => {
  let harness: RendererHarness

  beforeAll(async () => {
    harness = await startRendererHarness()
    await harness.page.goto(harness.baseUrl)
  })

  afterAll(async () => {
    await harness?.close()
  })

  it('imports the sample statement with the wizard, matches it, and shows the exceptions side by side', async () => {
    const { page } = harness
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Sandbox')
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 90_000 })

    await page.getByTestId('nav-reconcile').click()
    await page.getByTestId('sessions-empty').waitFor()
    await harness.screenshot('reconcile-empty')
    await page.getByTestId('recon-sample').click()
    await page.getByTestId('import-wizard').waitFor()
    await harness.screenshot('reconcile-wizard')
    expect(await page.getByTestId('wizard-file').textContent()).toMatch(/^sandbox-statement-\d{4}-\d{2}-\d{2}\.csv$/)
    expect(await page.getByTestId('wizard-number-form').textContent()).toMatch(/1,234\.56/)
    expect(await page.getByTestId('wizard-date-form').textContent()).toMatch(/DD\/MM\/YYYY/)
    expect(await page.getByTestId('map-credit').textContent()).toContain('Credit')
    expect(await page.getByTestId('wizard-rows').locator('tbody tr').count()).toBe(8)
    // The statement proves itself before anything is stored: its opening balance, every line and its closing balance tie.
    expect(await page.getByTestId('statement-complete').textContent()).toBe('Statement complete')
    expect(await page.getByTestId('statement-verdict').textContent()).toMatch(
      /^ties: opening NGN 1,000,000\.00 \+ lines NGN [\d,]+\.\d\d = closing NGN/
    )
    await harness.screenshot('reconcile-wizard')
    await page.getByTestId('wizard-preset').locator('input').fill('Sandbox Test Bank')
    await page.getByTestId('wizard-import').click()

    // The new session starts on the imported file, over its days, reading each record both ways: the statement shows which.
    await page.getByTestId('new-create').waitFor()
    expect(await page.getByTestId('new-net').getAttribute('class')).not.toContain('n-switch--active')
    // The session is of the account the statement states: said, not asked.
    expect(await page.getByTestId('new-account-stated').textContent()).toBe('0123456789 (as the statement states it)')
    await harness.screenshot('reconcile-new-session')
    await page.getByTestId('new-create').click()
    await page.getByTestId('review').waitFor()
    await expect.poll(() => page.getByTestId('summary-exceptions').textContent(), { timeout: 60_000 }).toMatch(/item\(s\) to review/)
    const summary = (await page.getByTestId('summary-bar').textContent()) ?? ''
    expect(summary).toContain('Suggested 2')
    expect(summary).toContain('Amount differs 1')
    expect(summary).toContain('Duplicate in the file 1')
    expect(await page.getByTestId('unexplained-NGN').textContent()).toMatch(/unexplained ₦0\.00|unexplained NGN\s?0\.00/)
    expect(await page.getByTestId('summary-bar').getByTestId('statement-complete').textContent()).toBe('Statement complete')
    // The one verdict, with why not; the basis the sample's credits show (net of fees), as the CLI says it.
    expect(await page.getByTestId('verdict').textContent()).toMatch(/^\s*Accounted for, but \d+ items left to review\.\s*$/)
    expect(await page.getByTestId('summary-basis').textContent()).toMatch(/net of the provider's fees, as the statement shows them/)
    expect(await page.getByTestId('fees-NGN').textContent()).toMatch(/provider's fees: matched (NGN\s?|₦)[\d,]+\.\d\d/)
    // b shows the bank reconciliation statement: from the opening balance to the closing balance, nothing left.
    await page.evaluate('(document.activeElement && document.activeElement.blur && document.activeElement.blur())')
    await page.keyboard.press('b')
    const rec = page.getByTestId('bank-rec-NGN')
    await rec.waitFor()
    expect(await rec.innerText()).toMatch(
      /Statement opening balance\s+(NGN\s?|₦)1,000,000\.00[\s\S]*Pending at the provider: not yet due at the bank \(\d+\)[\s\S]*Difference left\s+(NGN\s?|₦)0\.00/
    )
    await harness.screenshot('reconcile-bank-reconciliation')
    await page.keyboard.press('b')
    // The window is short (under 900 pixels): the summary opened for the statement folds back with it, to its verdict and
    // each currency's totals, and the first items show under it.
    await expect.poll(() => page.getByTestId('summary-toggle').getAttribute('aria-expanded')).toBe('false')
    expect(await page.getByTestId('summary-folded').textContent()).toMatch(
      /NGN\s*provider NGN\s[\d,]+\.\d\d\s*file NGN\s[\d,]+\.\d\d\s*unexplained NGN\s0\.00/
    )
    const firstRow = await page.getByTestId('item-0').boundingBox()
    expect((firstRow?.y ?? Infinity) + (firstRow?.height ?? 0)).toBeLessThanOrEqual(page.viewportSize()?.height ?? 0)
    await harness.screenshot('reconcile-review')
    expect(harness.pageErrors).toEqual([])
  })

  it('accepts a suggestion, annotates an exception, closes with the summary, exports a report that agrees with the screen, and reopens with a reason', async () => {
    const { page } = harness
    const chip = async (label: string): Promise<number> =>
      Number(new RegExp(`${label} (\\d+)`).exec((await page.getByTestId('summary-bar').textContent()) ?? '')?.[1] ?? 0)
    const matchedBefore = await chip('Matched')

    // Only the suggestions, by the filter; the first is accepted with its score and reasons in view.
    await page.getByTestId('outcome-filter').click()
    await page.getByText(/^Suggested \(2\)$/).click()
    await expect.poll(() => page.getByTestId('items-shown').textContent()).toBe('1–2 of 2')
    await page.getByTestId('action-details').click()
    await expect.poll(() => page.getByTestId('item-reasons').textContent()).toMatch(/amount equal|sum of \d+ provider records/)
    await harness.screenshot('reconcile-item-details')
    await page.keyboard.press('Escape')
    await page.getByTestId('action-accept').click()
    await expect.poll(() => chip('Suggested')).toBe(1)
    expect(await chip('Matched')).toBeGreaterThan(matchedBefore)

    // The amount that differs gets a reason and a note.
    await page.getByTestId('outcome-filter').click()
    await page.getByText(/^Amount differs \(1\)$/).click()
    await expect.poll(() => page.getByTestId('items-shown').textContent()).toBe('1–1 of 1')
    await page.getByTestId('action-note').click()
    await page.getByTestId('note-text').locator('textarea').fill('Bank credited 100.00 short; claim raised')
    await page.getByTestId('note-save').click()
    await expect.poll(() => page.getByTestId('items-table').textContent()).toContain('Bank credited 100.00 short')

    // Closing asks main, with the summary; a closed session shows its lock and takes no decision.
    await page.getByTestId('review-close').click()
    await page.getByTestId('review-locked').waitFor()
    expect(harness.host.ui.confirmations.at(-1)).toMatchObject({
      title: 'Close this reconciliation?',
      detail: expect.stringMatching(/NGN: provider [\d.]+, file [\d.]+, unexplained 0\.00/)
    })
    expect(await page.getByTestId('action-note').count()).toBe(0)
    await harness.screenshot('reconcile-closed')

    // The closed session's evidence pack: written where the user chose, and it checks offline.
    await page.getByTestId('review-evidence').click()
    // Read from the page's messages and notifications, so a failure shows what was said instead (one loaded run saw
    // neither the message nor a failure within 30 s); writing the pack rewrites every report, so it has a work-sized limit.
    const said = (): Promise<string[]> => page.locator('.n-message, .n-notification').allInnerTexts()
    try {
      await expect.poll(said, { timeout: 90_000 }).toContainEqual(expect.stringMatching(/Evidence pack written to /))
    } catch (error) {
      await harness.screenshot('reconcile-evidence-not-said')
      const saves = harness.host.ui.saves.map((s) => s.suggestedName)
      throw new Error(
        `No "Evidence pack written" on screen. The page's errors: ${JSON.stringify(harness.pageErrors)}; saves: ${JSON.stringify(saves)}`,
        {
          cause: error
        }
      )
    }
    const written = (await page.getByText(/Evidence pack written to /).textContent()) ?? ''
    const pack = /written to (.+\.zip)\. Its audit trail ends in ([0-9a-f]{64})/.exec(written)
    expect(harness.host.ui.saves.at(-1)?.suggestedName).toMatch(/^ledgerline-evidence-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.zip$/)
    expect(await verifyEvidencePack(readFileSync(pack?.[1] as string))).toMatchObject({ ok: true, chainHead: pack?.[2] })

    // The report read back has the screen's counts and totals.
    await page.getByTestId('export-items').click()
    await page.getByText(/Report written to /).waitFor()
    const saved = harness.host.ui.saves.at(-1)
    expect(saved?.suggestedName).toMatch(/^ledgerline-reconciliation-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
    const file = ((await page.getByText(/Report written to /).textContent()) ?? '').replace(/^Report written to /, '').trim()
    const rows = readExcelCsv(file)
    const screen = (await page.getByTestId('summary-bar').textContent()) ?? ''
    for (const [outcome, label] of [
      ['matched', 'Matched'],
      ['suggested', 'Suggested'],
      ['amount_differs', 'Amount differs'],
      ['only_in_file', 'Only in the file'],
      ['duplicate_in_file', 'Duplicate in the file']
    ] as const) {
      const shown = Number(new RegExp(`${label} (\\d+)`).exec(screen)?.[1] ?? 0)
      expect(rows.filter((r) => r['outcome'] === outcome).length, outcome).toBe(shown)
    }
    expect(rows.find((r) => r['outcome'] === 'amount_differs')?.['note']).toBe('Bank credited 100.00 short; claim raised')
    // …and its totals: the provider side (net of fees, as the session nets them) and the file side, to the kobo.
    const shownTotal = (side: string): number =>
      parseMajor(new RegExp(`${side} (?:NGN\\s?|₦)([\\d,]+\\.\\d\\d)`).exec(screen)?.[1]?.replace(/,/g, '') ?? 'NaN', 'NGN')
    const reportTotal = (column: string): number =>
      rows.reduce((sum, r) => sum + (r[column] ? parseMajor(r[column] as string, 'NGN') : 0), 0)
    expect(reportTotal('provider_net')).toBe(shownTotal('provider'))
    expect(reportTotal('file_amount')).toBe(shownTotal('file'))

    // Days as the user writes them: chosen in the header, the screen and the PDF written from it follow; ISO again after.
    const isoPeriod = ((await page.getByTestId('review-period').textContent()) ?? '').trim()
    const [from, to, zone] = /^(\d{4}-\d{2}-\d{2}) – (\d{4}-\d{2}-\d{2}) \((.+)\)$/.exec(isoPeriod)?.slice(1) as [string, string, string]
    const nigerian = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`
    await page.getByTestId('locale').click()
    await page.locator('.n-base-select-option', { hasText: 'Nigeria' }).click()
    await expect.poll(() => page.getByTestId('review-period').textContent()).toContain(`${nigerian(from)} – ${nigerian(to)}`)
    await harness.screenshot('reconcile-review-en-NG')

    // The bank reconciliation statement as a PDF, from the same screen: its difference left is the summary's.
    const reports = harness.host.ui.saves.length
    await page.getByTestId('export-pdf').click()
    await expect.poll(() => harness.host.ui.saves.length).toBe(reports + 1)
    expect(harness.host.ui.saves.at(-1)?.suggestedName).toMatch(/^ledgerline-bank-reconciliation-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf$/)
    const pdfSaid = page.getByText(/Report written to .+\.pdf/)
    await pdfSaid.waitFor()
    const pdfFile = ((await pdfSaid.textContent()) ?? '').replace(/^Report written to /, '').trim()
    const pdfLines = (await readPdfText(readFileSync(pdfFile), 'statement.pdf')).lines.map((l) => l.pieces.map((p) => p.text).join(' '))
    expect(pdfLines[0]).toBe('Bank reconciliation statement')
    expect(pdfLines.some((l) => /^Difference left\s+NGN [\d,.]+$/.test(l))).toBe(true)
    expect(pdfLines.map((l) => l.replace(/\s+/g, ' '))).toContain(`Period ${nigerian(from)} to ${nigerian(to)} (${zone})`)
    await page.getByTestId('locale').click()
    await page.locator('.n-base-select-option', { hasText: 'ISO' }).click()
    await expect.poll(() => page.getByTestId('review-period').textContent()).toContain(`${from} – ${to}`)

    // Reopening needs a reason, which the history keeps.
    await page.getByTestId('review-reopen').click()
    await page.getByTestId('reopen-reason').locator('input').fill('Bank sent a corrected statement')
    await page.getByTestId('reopen-confirm').click()
    await expect.poll(() => page.getByTestId('review-locked').count()).toBe(0)
    await page.getByTestId('action-details').click()
    await expect.poll(() => page.getByTestId('session-history').textContent()).toContain('Bank sent a corrected statement')
    // The history starts where the session did: its creation (the service writes session_created), said in words.
    const history = page.getByTestId('session-history').locator('.n-timeline-item')
    expect(await history.first().textContent()).toMatch(/Session created: payments from \d{4}-\d{2}-\d{2}/)
    expect(await history.allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Session closed'),
        expect.stringContaining('Session reopened: Bank sent a corrected statement')
      ])
    )
    await harness.screenshot('reconcile-reopened-history')
    await page.keyboard.press('Escape')
    expect(harness.pageErrors).toEqual([])
  })

  it('lists sessions with their state and counts, shows an unknown session as an error, and holds at 1280×720 in dark mode with a long name', async () => {
    const { page } = harness
    await page.getByText('‹ Sessions').click()
    await page.getByTestId('sessions-table').waitFor()
    // The list shown first is the one read before the session was run: it is read again as the screen opens.
    await expect.poll(() => page.getByTestId('session-0').textContent()).toMatch(/\d+ matched · \d+ to review/)
    const row = (await page.getByTestId('session-0').textContent()) ?? ''
    expect(row).toMatch(/sandbox-statement-\d{4}-\d{2}-\d{2}/)
    expect(row).toMatch(/\d+ matched · \d+ to review/)
    expect(row).toContain('open')
    // Grouped by the account the statement states; the session reopened, no closed period of the account comes before it.
    expect(await page.getByTestId('session-account').first().textContent()).toBe('0123456789NGN · as stated')
    expect(await page.getByTestId('session-0').getByTestId('session-chain').textContent()).toContain('no closed period before it')
    await harness.screenshot('reconcile-sessions')
    // The next period with the same settings, from the selected session.
    await page.getByTestId('session-0').click()
    await page.getByTestId('recon-next-period').click()
    expect(await page.getByTestId('new-name').locator('input').inputValue()).toMatch(/ \(next\)$/)
    // No statement chosen yet: the account can be named (a statement that states one will say it instead).
    await page.getByTestId('new-account').locator('input').waitFor()
    expect(await page.getByTestId('new-net').getAttribute('class')).not.toContain('n-switch--active')
    await page.getByRole('button', { name: 'Cancel' }).click()

    await page.goto(`${harness.baseUrl}#/reconcile/no-such-session`)
    await expect.poll(() => page.getByTestId('review-error').textContent()).toMatch(/no-such-session|not found|No session/i)
    // In words, alone: not over the session shown before it, and with the way back.
    expect(await page.getByTestId('review-error').locator('.n-alert-body__title').textContent()).toBe('Not found')
    expect(await page.getByTestId('review-name').count()).toBe(0)
    expect(await page.getByTestId('items-table').locator('tbody tr').count()).toBeLessThanOrEqual(1)
    await page.getByTestId('review-error-back').waitFor()
    await harness.screenshot('reconcile-unknown-session')

    // A long session name and a dark window at the smallest supported size.
    const longName =
      `October 2026 — First Example Bank PLC current account 0011223344, settlement and collections, with the mobile-money wallet ${'and more '.repeat(6)}`.slice(
        0,
        190
      )
    await page.goto(`${harness.baseUrl}#/reconcile`)
    await page.getByTestId('sessions-table').waitFor()
    const created = await page.evaluate(async (name) => {
      const w = globalThis as unknown as {
        api: {
          recon: {
            files(): Promise<{ ok: boolean; value: { id: string }[] }>
            create(a: unknown): Promise<{ ok: boolean; value: { id: string } }>
          }
        }
      }
      const files = await w.api.recon.files()
      return w.api.recon.create({
        name,
        source: 'payments',
        from: '2026-10-30',
        to: '2026-10-30',
        fileIds: [files.value[0]?.id],
        settings: { netOfFees: true }
      })
    }, longName)
    expect(created.ok).toBe(true)
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto(`${harness.baseUrl}#/reconcile/${created.value.id}`)
    await page.getByTestId('review-name').waitFor()
    // Not run yet: the review says so and offers the run; nothing overflows the window.
    await page.getByTestId('review-not-run').waitFor()
    expect(await page.getByTestId('outcome-filter').textContent()).toMatch(/All items/)
    await harness.screenshot('reconcile-dark-not-run-720')
    await page.getByTestId('review-run').click()
    await expect.poll(() => page.getByTestId('summary-exceptions').textContent(), { timeout: 60_000 }).toMatch(/to review/)
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')
    expect(overflow).toBeLessThanOrEqual(0)
    await harness.screenshot('reconcile-dark-long-name-720')

    // Accept all suggestions above a score: the confirmation says how many and their total first.
    await page.getByTestId('accept-all').click()
    await page
      .getByText(/^1 suggestion\(s\) scoring 8 or more in the current filter, totalling (NGN\s?|₦)[\d,]+\.\d\d in the file/)
      .waitFor()
    await page.getByRole('button', { name: 'Accept 1' }).click()
    await expect.poll(() => page.getByTestId('summary-bar').textContent()).toMatch(/Suggested 1(?!\d)/)
    await page.getByText(/^Accepted 1 suggestion/).waitFor()

    // An adjustment shows in the totals; undo takes it back; unmatch undoes an accepted match.
    await page.getByTestId('action-adjust').click()
    await page.getByTestId('adjust-amount').locator('input').fill('-52.50')
    await page.getByTestId('adjust-reason').locator('input').fill('SMS charges booked to bank fees')
    await page.getByTestId('adjust-save').click()
    await expect.poll(() => page.getByTestId('summary-bar').textContent()).toMatch(/adjustments -?(NGN\s?|₦)\s?-?52\.50/)
    await page.getByTestId('action-undo').click()
    await expect.poll(() => page.getByTestId('summary-bar').textContent()).not.toMatch(/adjustments/)
    await page.getByTestId('outcome-filter').click()
    await page.getByText(/^Matched \(\d+\)$/).click()
    // The accepted suggestion is the sample's payer without a reference: found by the provider's reference.
    const unnamed = sampleStatement(sandboxSeed(), { timeZone: systemTimeZone() }).differences.find((d) => d.kind === 'no-reference')
      ?.references[0] as string
    await page.getByTestId('filter-text').locator('input').fill(unnamed)
    await expect.poll(async () => (await page.getByTestId('items-table').innerText()).includes('accepted')).toBe(true)
    await page.getByText('✓ accepted').first().click()
    expect(await page.getByTestId('selected-reasons').textContent()).toMatch(/suggestion accepted/)
    await page.getByTestId('action-unmatch').click()
    await expect.poll(() => page.getByTestId('summary-bar').textContent()).toMatch(/Only at the provider \d+/)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('opens a statement dropped on the screen in the wizard, and refuses a file it cannot read', async () => {
    const { page } = harness
    await page.goto(`${harness.baseUrl}#/reconcile`)
    await page.getByTestId('recon-drop').waitFor()
    const drop = async (name: string, text: string): Promise<void> => {
      const dataTransfer = await page.evaluateHandle(
        ([n, t]) => {
          const g = globalThis as unknown as {
            DataTransfer: new () => { items: { add(f: unknown): void } }
            File: new (parts: string[], name: string) => unknown
          }
          const dt = new g.DataTransfer()
          dt.items.add(new g.File([t as string], n as string))
          return dt
        },
        [name, text]
      )
      await page.getByTestId('recon-drop').dispatchEvent('drop', { dataTransfer })
    }
    await drop(
      'bank-oktober.csv',
      'Datum;Referenz;Betrag;Währung\n13.10.2026;TST-0000001;1.234,56;NGN\n14.10.2026;TST-0000002;-12,00;NGN\n'
    )
    await page.getByTestId('import-wizard').waitFor()
    expect(await page.getByTestId('wizard-file').textContent()).toBe('bank-oktober.csv')
    expect(await page.getByTestId('wizard-number-form').textContent()).toMatch(/1\.234,56/)
    expect(await page.getByTestId('wizard-date-form').textContent()).toMatch(/DD\/MM\/YYYY/)
    expect(await page.getByTestId('wizard-date-order').textContent()).toContain('Day first')
    await harness.screenshot('reconcile-dropped')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('import-wizard').count()).toBe(0)
    // Named-month dates and a DR/CR column under a German header: the form shown is the one written.
    await drop(
      'kontoauszug.csv',
      'Datum;Buchungstext;Betrag;Soll/Haben;Währung\n31-Oct-2026;Zahlung TST-0000001;1.234,56;H;NGN\n31-Oct-2026;Gebühr;12,00;S;NGN\n'
    )
    await page.getByTestId('import-wizard').waitFor()
    expect(await page.getByTestId('wizard-date-form').textContent()).toBe('DD-MMM-YYYY')
    // Month names read alike in any order: there is no order to choose.
    expect(await page.getByTestId('wizard-date-order').count()).toBe(0)
    expect(await page.getByTestId('map-indicator').textContent()).toContain('Soll/Haben')
    expect(await page.getByTestId('wizard-rows').locator('tbody tr').nth(1).textContent()).toMatch(/-12\.00|−12\.00|-₦12\.00|−₦12\.00|-NGN/)
    await harness.screenshot('reconcile-dropped-named-months')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('import-wizard').count()).toBe(0)
    // The refusal is said in a message; read from the page, so a failure shows every message that was there instead.
    const messages = (): Promise<string[]> => page.locator('.n-message').allInnerTexts()
    await drop('invoice.pdf', '%PDF-1.7')
    await expect.poll(messages, { timeout: 30_000 }).toContainEqual(expect.stringMatching(/invoice\.pdf could not be read as a PDF/))
    await drop('statement.csv', '')
    await expect
      .poll(messages, { timeout: 30_000 })
      .toContainEqual(expect.stringMatching(/statement\.csv is an empty file \(0 bytes\), not a bank statement\. Export the statement/))
    expect(harness.pageErrors).toEqual([])
  })

  it('keeps a line it cannot read as an item of the session, which is left out only with a reason', async () => {
    const { page } = harness
    await page.goto(`${harness.baseUrl}#/reconcile`)
    await page.getByTestId('recon-drop').waitFor()
    const dataTransfer = await page.evaluateHandle(() => {
      const g = globalThis as unknown as {
        DataTransfer: new () => { items: { add(f: unknown): void } }
        File: new (parts: string[], name: string) => unknown
      }
      const dt = new g.DataTransfer()
      // Day first, but the second line is written month first: it cannot be read.
      const text =
        'Date,Reference,Amount,Currency\n13/10/2026,XYZ-0000001,1000.00,NGN\n10/30/2026,XYZ-0000002,12.00,NGN\n14/10/2026,XYZ-0000003,5.00,NGN\n'
      dt.items.add(new g.File([text], 'one-bad-line.csv'))
      return dt
    })
    await page.getByTestId('recon-drop').dispatchEvent('drop', { dataTransfer })
    await page.getByTestId('import-wizard').waitFor()
    expect(await page.getByTestId('wizard-problem-count').textContent()).toMatch(/1 row\(s\) could not be read.*line not read/)
    await page.getByTestId('wizard-import').click()
    await page.getByTestId('new-create').click()
    await page.getByTestId('review').waitFor()
    await expect.poll(() => page.getByTestId('summary-bar').textContent(), { timeout: 60_000 }).toContain('Line not read 1')
    // Never accounted for while the line is open; the statement (no balances) is not complete either.
    expect(await page.getByTestId('verdict').textContent()).toMatch(
      /Not accounted for: 1 line not read: read each by hand or leave it out with a reason\./
    )
    expect(await page.getByTestId('verdict-why').textContent()).toMatch(/does not state both an opening and a closing balance in NGN/)
    expect(await page.getByTestId('statement-verdict').textContent()).toBe('no balances to check; 1 line(s) not read')
    const row = page.locator('tr', { hasText: 'not read: 10/30/2026' })
    await row.click()
    await page.keyboard.press('l')
    await page.getByTestId('not-read-dialog').waitFor()
    expect(await page.getByTestId('not-read-text').textContent()).toBe('10/30/2026,XYZ-0000002,12.00,NGN')
    await harness.screenshot('reconcile-line-not-read')
    await page.getByTestId('not-read-exclude').click()
    await page.getByTestId('not-read-reason').locator('input').fill('Test line the bank printed by mistake')
    await page.getByTestId('not-read-save').click()
    await expect.poll(() => row.textContent()).toMatch(/resolved/)
    await expect.poll(() => row.textContent()).toMatch(/excluded: Test line the bank printed by mistake/)
    await expect.poll(() => page.getByTestId('unexplained-NGN').textContent()).not.toMatch(/not accounted for/)
    expect(harness.pageErrors).toEqual([])
  })

  it("carries what the account's closed period left open into its next one: the payment not on the statement clears there, the rest shows carried, and the bank reconciliation still foots", async () => {
    const { page } = harness
    type Api = {
      api: {
        recon: {
          sessions(): Promise<{ ok: boolean; value: { id: string; name: string; from: string; to: string; closedAt: string | null }[] }>
          items(
            a: unknown
          ): Promise<{ ok: boolean; value: { items: { differenceMinor: number | null; provider: { reference: string }[] }[] } }>
        }
      }
    }
    const sessions = await page.evaluate(async () => (await (globalThis as unknown as Api).api.recon.sessions()).value)
    const sample = sessions.find((x) => /^sandbox-statement/.test(x.name)) as { id: string; to: string }
    const missing = sampleStatement(sandboxSeed(), { timeZone: systemTimeZone() }).differences.find((d) => d.kind === 'missing')
      ?.references[0] as string
    // What the payment the statement lacks is expected at the bank as (net of its fees, as the session reads it).
    const item = await page.evaluate(
      async ([id, ref]) =>
        (await (globalThis as unknown as Api).api.recon.items({ sessionId: id, outcome: 'only_in_provider', text: ref })).value.items[0],
      [sample.id, missing] as const
    )
    const expected = -(item?.differenceMinor as number)
    expect(expected).toBeGreaterThan(0)
    // October is closed (the sample session, reopened above, is closed again).
    await page.goto(`${harness.baseUrl}#/reconcile/${sample.id}`)
    await page.getByTestId('review-close').click()
    await page.getByTestId('review-locked').waitFor()
    // Closed, its journal for the ledger (g): the fees on matched records as the summary states them, the SMS charges, balanced.
    const feesShown = /matched ((?:NGN\s?|₦)[\d,]+\.\d\d)/.exec((await page.getByTestId('fees-NGN').textContent()) ?? '')?.[1] as string
    await page.evaluate('(document.activeElement && document.activeElement.blur && document.activeElement.blur())')
    await page.keyboard.press('g')
    const totals = page.getByTestId('journal-totals-NGN')
    await totals.waitFor()
    expect(await totals.textContent()).toContain('(balanced)')
    expect(await totals.textContent()).toContain(`the provider's fees on matched records ${feesShown} (ties to the summary)`)
    expect(await totals.textContent()).toMatch(/Bank charges (NGN\s?|₦)52\.50/)
    for (const [account, code] of [
      ['fees', '6100'],
      ['bank_charges', '6110'],
      ['clearing', '1150'],
      ['bank', '1010']
    ] as const)
      await page.getByTestId(`map-account-${account}`).locator('input').fill(code)
    await page.getByTestId('journal-save-map').click()
    await page.getByText('Account map saved for this profile.').waitFor()
    await expect.poll(() => page.getByTestId('journal-lines').textContent()).toContain('6100')
    await harness.screenshot('reconcile-journal')
    await page.getByTestId('journal-write').click()
    await page.getByText(/^Journal written to /).waitFor()
    const journalSaid = (await page.getByText(/^Journal written to /).textContent()) ?? ''
    const journalFile = /^Journal written to (.+) \(\d+ entries\)$/.exec(journalSaid.trim())?.[1] as string
    expect(harness.host.ui.saves.at(-1)?.suggestedName).toMatch(/^ledgerline-journal-xero-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
    const xero = readFileSync(journalFile, 'utf8').trim().split('\r\n')
    expect(xero[0]).toBe('*Narration,*Date,Description,*AccountCode,*TaxRate,*Amount')
    // Debits (positive) and credits (negative) add up to nothing, and the fee lines go to the map's code.
    const amounts = xero.slice(1).map((l) => parseMajor(l.slice(l.lastIndexOf(',') + 1), 'NGN'))
    expect(amounts.reduce((a, b) => a + b, 0)).toBe(0)
    expect(xero.some((l) => l.includes(',6100,Tax Exempt,'))).toBe(true)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('journal-dialog').count()).toBe(0)
    const closing = sampleStatement(sandboxSeed(), { timeZone: systemTimeZone() }).closingMinor
    const next = new Date(`${sample.to}T00:00:00Z`)
    next.setUTCDate(next.getUTCDate() + 1)
    const day = next.toISOString().slice(0, 10)
    const major = (minor: number): string => (minor / 100).toFixed(2)
    const text = [
      'Account number,0123456789',
      'Currency,NGN',
      `Opening balance,${major(closing)}`,
      'Date,Reference,Amount,Details',
      `${day},${missing},${major(expected)},POS/WEB SETTLEMENT ${missing}`,
      `Closing balance,${major(closing + expected)}`
    ].join('\n')
    await page.goto(`${harness.baseUrl}#/reconcile`)
    await page.getByTestId('recon-drop').waitFor()
    const dataTransfer = await page.evaluateHandle(
      ([t]) => {
        const g = globalThis as unknown as {
          DataTransfer: new () => { items: { add(f: unknown): void } }
          File: new (parts: string[], name: string) => unknown
        }
        const dt = new g.DataTransfer()
        dt.items.add(new g.File([t as string], 'next-period.csv'))
        return dt
      },
      [text]
    )
    await page.getByTestId('recon-drop').dispatchEvent('drop', { dataTransfer })
    await page.getByTestId('import-wizard').waitFor()
    await page.getByTestId('wizard-import').click()
    await page.getByTestId('new-create').click()
    await page.getByTestId('review').waitFor()
    await expect.poll(() => page.getByTestId('summary-exceptions').textContent(), { timeout: 60_000 }).toMatch(/to review/)
    // Cleared here: the payment October's statement lacked, marked as carried from October's days.
    await page.getByTestId('filter-text').locator('input').fill(missing)
    await expect
      .poll(() => page.getByTestId('items-table').innerText())
      .toMatch(new RegExp(`Matched[\\s\\S]*carried from [\\d-]+ to ${sample.to}`))
    await page.getByTestId('filter-text').locator('input').fill('')
    // What is still open came forward too, each shown as carried.
    await expect.poll(async () => await page.getByTestId('item-carried').count()).toBeGreaterThan(1)
    expect(await page.getByTestId('carried-NGN').textContent()).toMatch(
      /^carried forward from earlier periods, in the totals above: \d+ provider record\(s\) \(NGN [\d,.]+\) and \d+ line\(s\) of earlier statements/
    )
    await page.evaluate('(document.activeElement && document.activeElement.blur && document.activeElement.blur())')
    await page.keyboard.press('b')
    const rec = page.getByTestId('bank-rec-NGN')
    await rec.waitFor()
    expect(await rec.innerText()).toMatch(
      /Provider's records carried forward from earlier periods, still open there \(\d+\)[\s\S]*Difference left\s+(NGN\s?|₦)0\.00[\s\S]*Items carried forward from earlier periods: [1-9]\d* cleared in this period, \d+ still open/
    )
    expect(await page.getByTestId('summary-chain').textContent()).toContain('ties to that closing')
    await harness.screenshot('reconcile-carried-forward')
    await page.keyboard.press('b')
    expect(harness.pageErrors).toEqual([])
  })

  it('makes a rule from a line with Shift+R, tries it, saves it not enabled, enables it, and the next run decides the line by it, naming its version', async () => {
    const { page } = harness
    type Api = {
      api: {
        recon: {
          items(a: unknown): Promise<{
            ok: boolean
            value: { items: { resolved: boolean; reasonCode: string | null; decidedBy: string | null; reasons: string[] }[] }
          }>
        }
      }
    }
    const sessionId = /#\/reconcile\/([^/?]+)/.exec(page.url())?.[1] as string
    // The bank's SMS charge, alone in the file: chosen, and a rule drafted from it.
    await page.getByTestId('filter-text').locator('input').fill('SMS ALERT')
    await expect.poll(() => page.getByTestId('items-table').innerText()).toContain('SMS ALERT CHARGES')
    await page.evaluate('(document.activeElement && document.activeElement.blur && document.activeElement.blur())')
    await page.keyboard.press('Shift+R')
    await page.getByTestId('rules-dialog').waitFor()
    await expect
      .poll(() => page.getByTestId('rule-words').textContent())
      .toBe(
        `When the line's description contains "SMS ALERT CHARGES" and the line's amount is a debit: classify the line as a bank charge (reason code bank_charge).`
      )
    await page.getByTestId('rule-try').click()
    await expect
      .poll(() => page.getByTestId('rule-preview').textContent())
      .toMatch(/"sms-alert-charges" would act on [1-9]\d* items?: \d+ as you decided them, \d+ otherwise, [1-9]\d* not decided yet\./)
    await harness.screenshot('reconcile-rule-from-line')
    await page.getByTestId('rule-save').click()
    await page.getByText('Added: sms-alert-charges (version 1, not enabled).').waitFor()
    await page.getByTestId('rule-enabled-sms-alert-charges').click()
    await expect.poll(() => page.getByTestId('rule-enabled-sms-alert-charges').getAttribute('aria-checked')).toBe('true')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('rules-dialog').count()).toBe(0)
    await page.getByTestId('review-rerun').click()
    const sms = async () =>
      (await page.evaluate(
        async ([id]) => (await (globalThis as unknown as Api).api.recon.items({ sessionId: id, text: 'SMS ALERT' })).value.items,
        [sessionId] as const
      )) ?? []
    await expect
      .poll(async () => (await sms()).map((i) => i.decidedBy), { timeout: 60_000 })
      .toContain('rule "sms-alert-charges" (version 1)')
    const decided = (await sms()).find((i) => i.decidedBy === 'rule "sms-alert-charges" (version 1)')
    expect(decided).toMatchObject({ resolved: true, reasonCode: 'bank_charge' })
    await page.getByTestId('filter-text').locator('input').fill('')
    expect(harness.pageErrors).toEqual([])
  })
})
