// The record workspace in Chromium: first run, every table down to the last of 100,000 payments, sorting, columns, totals, the drawer, Ctrl+K, the actions (a live one confirmed by main), followed items, and the layout at 1280×720 light and dark.
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paymentRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import { ReconService } from '../../src/main/reconcile/service'
import { DEFAULT_SETTINGS } from '../../src/shared/reconcile'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import type { Payment } from '../../src/shared/api/schemas'
import { settled, startRendererHarness, type RendererHarness } from '../support/renderer-harness'

const EXTRA = 100_000

/** Presses a button of the app's own confirmation dialog (waiting for it to open), never the drawer's button of the same name. */
/** Confirms the one open dialog and waits until it has gone: a dialog still leaving would take the next confirmation's click. */
async function confirmInDialog(page: RendererHarness['page'], name: string): Promise<void> {
  const dialog = page.locator('.n-dialog')
  await expect.poll(() => dialog.count()).toBe(1)
  await dialog.getByRole('button', { name, exact: true }).click()
  await expect.poll(() => dialog.count()).toBe(0)
}

/** Payment n of the seeded 100,000: older than anything the Sandbox makes, so the oldest is n = 0, the table's last row. */
function oldPayment(n: number): Payment {
  // The newest of them has a very long name and a very large amount, for the layout.
  const long = n === EXTRA - 1
  return {
    id: `old-${String(n).padStart(6, '0')}`,
    reference: `OLD-${String(n).padStart(6, '0')}`,
    amount: long ? '987654321012.34' : `${1 + (n % 997)}.${String(n % 100).padStart(2, '0')}`,
    currency: n % 10 === 0 ? 'GHS' : 'NGN',
    status: 'successful',
    channel: 'card',
    createdAt: new Date(Date.UTC(2019, 0, 1) + n * 60_000).toISOString(),
    metadata: {
      customerName: long
        ? 'Chukwuemekaolisaebuka Oluwadamilareayomide Nnamdi-Azikiwe Holdings International Limited (Lagos Island Branch)'
        : `Customer ${n}`
    }
  } as Payment
}

describe('record workspace in Chromium', { timeout: 180_000 }, () => {
  let harness: RendererHarness
  let live: Sandbox

  beforeAll(async () => {
    live = await startSandbox({ rateLimits: false })
    harness = await startRendererHarness()
    await harness.page.setViewportSize({ width: 1280, height: 720 })
    await harness.page.goto(harness.baseUrl)
  })

  afterAll(async () => {
    await harness?.close()
    await live?.close()
  })

  it('first run: offers the Sandbox or a key, and one click syncs the Sandbox', async () => {
    const { page } = harness
    await page.getByTestId('first-run').waitFor()
    await harness.screenshot('workspace-first-run')
    await page.getByTestId('first-run-sandbox').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 90_000 })
    expect(await page.getByTestId('first-run').count()).toBe(0)
  })

  it('reaches the last of 100,000+ payments from the keyboard, sorts by a header, adds a column and totals per currency', async () => {
    const { page } = harness
    const db = new Database(harness.host.config.paths.cacheDatabase)
    db.pragma('busy_timeout = 10000')
    const store = new CacheStore(db)
    for (let start = 0; start < EXTRA; start += 10_000)
      store.writePage(
        'sandbox',
        'payments',
        Array.from({ length: 10_000 }, (_, i) => paymentRow(oldPayment(start + i)))
      )
    const total = (db.prepare("select count(*) as n from payments where profile_id = 'sandbox'").get() as { n: number }).n
    const ghs = db
      .prepare("select count(*) as n, sum(amount_minor) as s from payments where profile_id = 'sandbox' and currency = 'GHS'")
      .get() as { n: number; s: number }
    const largest = db
      .prepare("select reference from payments where profile_id = 'sandbox' order by currency, amount_minor desc, seq desc limit 1")
      .get() as { reference: string }
    db.close()

    await page.getByTestId('nav-records').click()
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe(`${total.toLocaleString('en-US')} payments`)
    expect(await page.getByTestId('total-GHS').textContent()).toContain(`(${ghs.n.toLocaleString('en-US')})`)
    await page.getByTestId('row-0').locator('[role=gridcell]').first().waitFor()
    await page.getByTestId('record-table-body').focus()
    await page.keyboard.press('End')
    await expect.poll(() => page.getByTestId(`row-${total - 1}`).textContent(), { timeout: 10_000 }).toContain('OLD-000000')
    await harness.screenshot('workspace-payments-last-row')
    await page.keyboard.press('k')
    await expect.poll(() => page.getByTestId(`row-${total - 2}`).getAttribute('aria-selected')).toBe('true')
    expect(await page.getByTestId(`row-${total - 2}`).textContent()).toContain('OLD-000001')
    await page.keyboard.press('Home')
    await expect.poll(() => page.getByTestId('row-0').getAttribute('aria-selected')).toBe('true')
    // This table is taller than the page can be, so it scrolls in pages: a steady scroll still moves
    // the rows exactly as far as it went, across page boundaries (45,000 px is 1,500 rows).
    await page.evaluate(`new Promise((done) => {
      const body = document.querySelector('[data-testid="record-table-body"]')
      let steps = 0
      const step = () => {
        body.scrollTop += 300
        if (++steps < 150) requestAnimationFrame(step)
        else done()
      }
      requestAnimationFrame(step)
    })`)
    // The row drawn at the top once the table has caught up with the scroll (asked again until it has, never a fixed wait).
    const topRow = (): Promise<string | null> =>
      page.evaluate(`(() => {
        const body = document.querySelector('[data-testid="record-table-body"]')
        const box = body.getBoundingClientRect()
        return document.elementFromPoint(box.left + 40, box.top + 30 + 15)?.closest('[role=row]')?.getAttribute('aria-rowindex') ?? null
      })()`)
    await expect.poll(topRow).toBe('1501')

    // Largest amount first within each currency: a click on the header, then the other way.
    await page.getByTestId('sort-amount').click()
    await expect.poll(() => page.getByTestId('row-0').textContent()).toContain(largest.reference)
    await page.getByTestId('columns-button').click()
    await page.getByTestId('column-rate').click()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('[role=columnheader]').allTextContents()).toContain('FX rate')
    await page.getByTestId('sort-amount').click()
    await expect.poll(() => page.getByTestId('sort-amount').textContent()).toContain('▲')
    await page.getByTestId('sort-amount').click()

    // Every table is there, and says what it holds or why it is empty.
    for (const tab of ['transfers', 'plans', 'subscriptions', 'virtual_accounts', 'banks']) {
      await page.getByTestId(`tab-${tab}`).click()
      await expect
        .poll(
          async () => {
            const total = (await page.getByTestId('records-total').textContent()) ?? ''
            const empty =
              (await page.getByTestId('record-table-empty').count()) > 0
                ? ((await page.getByTestId('record-table-empty').textContent()) ?? '')
                : ''
            return /^[1-9][\d,]* /.test(total) || /^No .+(Follow|Create|Sync)/.test(empty)
          },
          { message: tab }
        )
        .toBe(true)
    }
    await page.getByTestId('tab-payments').click()
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe(`${total.toLocaleString('en-US')} payments`)

    // A filter narrows rows and totals together.
    await page.getByTestId('search-text').locator('input').fill('OLD-000042')
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('1 payment')
    await page.getByTestId('search-text').locator('input').fill('')
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe(`${total.toLocaleString('en-US')} payments`)
  })

  it('opens a record with Enter: labelled fields, copy, raw JSON, related records, Esc closes', async () => {
    const { page } = harness
    await page.getByTestId('tab-plans').click()
    await page.getByTestId('row-0').locator('[role=gridcell]').first().waitFor()
    await page.getByTestId('record-table-body').focus()
    await page.keyboard.press('j')
    await page.keyboard.press('Enter')
    await page.getByTestId('drawer-fields').waitFor()
    expect(await page.getByTestId('drawer-fields').textContent()).toContain('Plan id')
    await page.getByTestId('copy-Plan id').click()
    await page.getByText('Plan id copied').waitFor()
    await page.getByTestId('drawer-raw-toggle').click()
    expect(JSON.parse((await page.getByTestId('drawer-raw').textContent()) ?? '')).toHaveProperty('id')
    const subscribers = page.getByTestId('relation-Subscribers')
    await subscribers.waitFor()
    const first = subscribers.locator('button').first()
    if ((await first.count()) > 0) {
      await first.click()
      await expect.poll(() => page.getByTestId('record-drawer').textContent()).toContain('Subscription')
      await page.getByTestId('drawer-back').click()
      await page.getByTestId('relation-Subscribers').waitFor()
    }
    await harness.screenshot('workspace-drawer-plan')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('drawer-fields').count()).toBe(0)
  })

  it('shows where a payment sits in reconciliation sessions, one click from its review', async () => {
    const { page } = harness
    const db = new Database(harness.host.config.paths.cacheDatabase)
    db.pragma('busy_timeout = 10000')
    const service = new ReconService(db)
    const imported = await service.importStatement({
      profileId: 'sandbox',
      name: 'october.csv',
      bytes: Buffer.from('Date,Reference,Amount\n2019-01-01,OLD-000077,78.77\n'),
      mapping: { defaultCurrency: 'NGN' },
      ifSameFile: 'import-again'
    })
    if (imported.status !== 'imported') throw new Error(`statement not stored: ${imported.status}`)
    const session = service.createSession({
      profileId: 'sandbox',
      name: 'January 2019 close',
      source: 'payments',
      from: '2019-01-01',
      to: '2019-01-31',
      timeZone: 'UTC',
      settings: DEFAULT_SETTINGS,
      fileIds: [imported.file.id]
    })
    const provider = {
      id: 'old-000077',
      reference: 'OLD-000077',
      serviceReference: null,
      date: '2019-01-01',
      amountMinor: 7877,
      feesMinor: 0,
      currency: 'NGN',
      status: 'successful',
      channel: 'card',
      name: 'Customer 77'
    }
    const line = {
      id: 'f:1',
      fileId: imported.file.id,
      line: 2,
      date: '2019-01-01',
      reference: 'OLD-000077',
      description: '',
      counterparty: null,
      amountMinor: 7877,
      currency: 'NGN'
    }
    const item = {
      key: 'old-000077|f:1',
      outcome: 'matched',
      provider: [provider],
      file: [line],
      differenceMinor: 0,
      score: null,
      reasons: ["reference: the file's reference is the provider's reference"],
      decision: null,
      note: null,
      reasonCode: null,
      resolved: false,
      decidedBy: null,
      decidedAt: null
    }
    db.prepare("insert into recon_items (session_id, position, item_key, outcome, data) values (?, 0, ?, 'matched', ?)").run(
      session.id,
      item.key,
      JSON.stringify(item)
    )
    db.close()
    await page.keyboard.press('Control+k')
    await page.getByTestId('find-input').locator('input').fill('OLD-000077')
    await page.getByTestId('find-hit-old-000077').waitFor()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('drawer-recon').textContent()).toContain('January 2019 close')
    expect(await page.getByTestId('drawer-recon').textContent()).toContain('matched')
    await page.getByTestId('drawer-recon').getByText('January 2019 close').click()
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/reconcile/${session.id}`)
    expect(await page.getByTestId('drawer-fields').count()).toBe(0)
  })

  it('Ctrl+K finds a record from any screen and Enter opens it', async () => {
    const { page } = harness
    await page.getByTestId('nav-overview').click()
    await page.keyboard.press('Control+k')
    await page.getByTestId('find-input').locator('input').fill('OLD-000123')
    await page.getByTestId('find-hit-old-000123').waitFor()
    await harness.screenshot('workspace-find')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('drawer-title').textContent()).toBe('OLD-000123')
    await page.keyboard.press('Escape')
  })

  it('authorizes a pending payment with its PIN and then its OTP, showing what the provider says', async () => {
    const { page } = harness
    const db = new Database(harness.host.config.paths.cacheDatabase, { readonly: true })
    const pending = db
      .prepare(
        "select id, reference from payments where profile_id = 'sandbox' and is_final = 0 and json_extract(raw, '$.authorization.mode') = 'pin' limit 1"
      )
      .get() as { id: string; reference: string }
    db.close()
    await page.keyboard.press('Control+k')
    await page.getByTestId('find-input').locator('input').fill(pending.reference)
    await page.getByTestId(`find-hit-${pending.id}`).waitFor()
    await page.keyboard.press('Enter')
    await page.getByTestId('authorize-value').locator('input').fill('1234')
    await page.getByTestId('authorize-send').click()
    await confirmInDialog(page, 'Send PIN')
    await expect.poll(() => page.getByTestId('drawer-outcome').textContent()).toContain('OTP')
    await page.getByTestId('authorize-value').locator('input').fill('123456')
    await page.getByTestId('authorize-send').click()
    await confirmInDialog(page, 'Send OTP')
    await expect.poll(() => page.getByTestId('drawer-outcome').textContent()).toContain('successful')
    expect(await page.getByTestId('action-authorize').count()).toBe(0)
    await harness.screenshot('workspace-authorized')
    await page.keyboard.press('Escape')
  })

  it('creates a virtual account with a live countdown and funds it through the Sandbox simulator', async () => {
    const { page } = harness
    await page.getByTestId('nav-accounts').click()
    await page.getByTestId('va-name').locator('input').fill('Invoice 1042 – Adaeze Okafor')
    await page.getByTestId('va-amount').locator('input').fill('25000.00')
    await page.getByTestId('va-submit').click()
    await page.getByTestId('va-created').waitFor()
    const first = await page.getByTestId('va-countdown').textContent()
    expect(first).toMatch(/\d+:\d\d left/)
    await expect.poll(() => page.getByTestId('va-countdown').textContent(), { timeout: 5_000 }).not.toBe(first)
    await harness.screenshot('workspace-virtual-account')
    const number = (await page.getByTestId('va-created-number').textContent()) ?? ''
    await page.getByTestId('va-open').click()
    await page.getByTestId('fund-send').click()
    await confirmInDialog(page, 'Pay in')
    await expect.poll(() => page.getByTestId('drawer-outcome').textContent()).toMatch(new RegExp(`NGN\\s25,000\\.00 paid into ${number}`))
    await expect.poll(() => page.getByTestId('relation-Payments into it').textContent()).toMatch(/NGN\s25,000\.00 · .* · successful/)
    await page.keyboard.press('Escape')
  })

  it("follows a pasted list and an imported one, shows each item's last result, and opens a bulk file's transfers", async () => {
    const { page } = harness
    const [first, , third] = live.bulkFileIds.test as [string, string, string]
    await page.getByTestId('nav-overview').click()
    expect(await page.getByTestId('follow-kind').textContent()).toContain('Bulk file id')
    await page.getByTestId('follow-list').locator('textarea').fill(`${first}\n\n`)
    await page.getByTestId('follow-list-add').click()
    await page.getByTestId(`followed-${first}`).waitFor()
    await page
      .getByTestId('follow-file')
      .setInputFiles({ name: 'bulk-files.csv', mimeType: 'text/csv', buffer: Buffer.from(`"${third}"\r\n${first}\r\n`) })
    await page.getByTestId(`followed-${third}`).waitFor()
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 90_000 })
    await expect.poll(() => page.getByTestId(`followed-result-${first}`).textContent()).toMatch(/^[\d,]+ transfers, [\d,]+ final/)
    const transfers = (await page.getByTestId(`followed-result-${first}`).textContent())?.split(' ')[0] as string
    await page.getByTestId(`unfollow-${third}`).click()
    await expect.poll(() => page.getByTestId(`followed-${third}`).count()).toBe(0)
    await harness.screenshot('workspace-followed')
    // A bulk file's transfers, one click away.
    await page.getByTestId(`transfers-of-${first}`).click()
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe(`${transfers} transfers`)
    expect(await page.getByTestId('filter-bulk-file').textContent()).toContain(first)
    // The export holds exactly those transfers.
    await page.getByTestId('export').click()
    await expect.poll(async () => (await page.getByText(/Exported [\d,]+ rows to /).count()) > 0).toBe(true)
    expect(await page.getByText(/Exported [\d,]+ rows to /).textContent()).toContain(`Exported ${transfers} rows`)
  })

  it("cancels a plan in a live profile only after main's native confirmation", async () => {
    const { page, host } = harness
    await page.getByTestId('nav-profiles').click()
    await page.getByTestId('add-name').locator('input').fill('Acme live')
    await page.getByTestId('add-base-url').locator('input').fill(live.baseUrl)
    await page.getByTestId('add-key').locator('input').fill(live.keys.live)
    await page.getByTestId('add-submit').click()
    await page.getByTestId('use-Acme live').click()
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Acme live')
    await page.getByTestId('nav-overview').click()
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-done').waitFor({ timeout: 90_000 })
    await page.getByTestId('nav-records').click()
    await page.getByTestId('tab-plans').click()
    await page.getByTestId('filter-status').click()
    await page.locator('.n-base-select-option').getByText('active', { exact: true }).click()
    await page.getByTestId('row-0').locator('[role=gridcell]').first().waitFor()
    await page.getByTestId('row-0').click()
    await page.getByTestId('action-cancel-plan').click()
    host.ui.confirmAnswer = false
    const asked = host.ui.confirmations.length
    await confirmInDialog(page, 'Cancel plan')
    await expect.poll(() => host.ui.confirmations.length).toBe(asked + 1)
    expect(host.ui.confirmations.at(-1)?.title).toBe('Cancel a live plan?')
    expect(await page.getByTestId('action-cancel-plan').count()).toBe(1)
    host.ui.confirmAnswer = true
    await page.getByTestId('action-cancel-plan').click()
    await confirmInDialog(page, 'Cancel plan')
    await expect.poll(() => page.getByTestId('drawer-outcome').textContent()).toMatch(/cancelled/i)
    await harness.screenshot('workspace-live-cancelled')
    await page.keyboard.press('Escape')
  })

  it('lays out at 1280×720 in light and dark with long names and large amounts, nothing wider than the window', async () => {
    const { page } = harness
    await page.getByTestId('nav-profiles').click()
    await page.getByTestId('use-Sandbox').click()
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Sandbox')
    for (const theme of ['light', 'dark'] as const) {
      await page.getByTestId('theme').click()
      await page.getByText(`Theme: ${theme}`, { exact: true }).click()
      for (const screen of ['overview', 'records', 'accounts', 'bulk', 'reconcile', 'profiles']) {
        await page.getByTestId(`nav-${screen}`).click()
        await expect.poll(() => page.evaluate('location.hash')).toBe(screen === 'overview' ? '#/' : `#/${screen}`)
        if (screen === 'records') {
          await page.getByTestId('tab-payments').click()
          await page
            .getByTestId('search-text')
            .locator('input')
            .fill(`OLD-0${EXTRA - 1}`)
          await expect.poll(() => page.getByTestId('record-table').textContent()).toContain('987,654,321,012.34')
        }
        await settled(page)
        const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number
        expect(overflow, `${screen} (${theme}) is wider than the window`).toBeLessThanOrEqual(0)
        if (screen === 'records' || screen === 'overview') await harness.screenshot(`workspace-${screen}-${theme}`)
      }
    }
    expect(harness.pageErrors).toEqual([])
  })
})
