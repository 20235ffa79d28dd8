// Team mode in Chromium against a real PostgreSQL: a preparer connects on Profiles, shares a session, decides and submits it from the keyboard; a reviewer on another computer opens it from the workspace's list, finds it read-only, comments on an item and approves it; each sees the other's work with its author.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { testHostConfig } from '../support/app-env'
import { runCli } from '../support/cli'
import { startPostgres, type TestPostgres } from '../support/postgres'
import { scenarioService, scenarioSession } from '../support/recon-session'
import { startRendererHarness, type RendererHarness } from '../support/renderer-harness'

let server: TestPostgres
const home = mkdtempSync(join(tmpdir(), 'ledgerline-team-e2e-'))
const PASSWORDS: Record<string, string> = { owner: 'owner pass 1', alice: 'alice-e2e-4b1f', bob: 'bob-e2e-9c2d' }
const url = (login: string): string => `postgres://${login}@127.0.0.1:${server.port}/postgres`
const cli = (login: string, ...args: string[]) =>
  runCli([...args, '--server', url(login), '--db', join(home, `${login}.sqlite`)], {
    PGPASSWORD: PASSWORDS[login] ?? '',
    HOME: home,
    PGPASSFILE: join(home, 'none')
  })
const PAYMENTS = Array.from({ length: 6 }, (_, i) => ({ n: i + 1, amount: 5000 + i * 10, day: '2026-10-05' }))

/** Connects on Profiles as a member, typing the URL and the password and pressing Enter. */
async function connect(h: RendererHarness, login: string): Promise<void> {
  const { page } = h
  await page.getByTestId('nav-profiles').click()
  await page.getByTestId('workspace-url').locator('input').fill(url(login))
  await page
    .getByTestId('workspace-password')
    .locator('input')
    .fill(PASSWORDS[login] as string)
  await page.getByTestId('workspace-password').locator('input').press('Enter')
  await expect.poll(() => page.getByTestId('workspace-login').textContent()).toBe(login)
  await expect.poll(() => page.getByTestId('workspace-line').textContent()).toBe('live')
}

const blur = (page: Page): Promise<unknown> =>
  page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()')

describe('team mode in Chromium', { timeout: 240_000 }, () => {
  let harness: RendererHarness | undefined

  beforeAll(async () => {
    server = await startPostgres()
    await server.createLogin('owner', PASSWORDS.owner as string)
    await server.sql('grant create on database postgres to owner')
    for (const login of ['alice', 'bob']) await server.createLogin(login, PASSWORDS[login] as string)
    expect((await cli('owner', 'team', 'setup')).code).toBe(0)
    expect((await cli('owner', 'team', 'member', 'add', 'alice', '--role', 'preparer')).code).toBe(0)
    expect((await cli('owner', 'team', 'member', 'add', 'bob', '--role', 'reviewer')).code).toBe(0)
  }, 120_000)

  afterAll(async () => {
    await harness?.close()
    await server?.stop()
  })

  it('a preparer connects, shares a session, decides and submits it, and her history names her', async () => {
    // Alice's computer: a session reconciled there, its profile in use.
    const config = testHostConfig()
    const service = scenarioService(PAYMENTS, config.paths.cacheDatabase)
    const csv = ['Date,Reference,Amount', ...PAYMENTS.map((p) => `2026-10-05,,${p.amount}.00`)].join('\n') + '\n'
    await scenarioSession(service, csv, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    const db = openCache(config.paths.cacheDatabase)
    db.prepare("insert into settings (key, value) values ('active_profile', 'test')").run()
    db.close()
    harness = await startRendererHarness({ config })
    const { page } = harness
    await page.goto(harness.baseUrl)
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Acme test')

    await page.getByTestId('nav-profiles').click()
    await page.getByTestId('workspace-card').waitFor()
    await harness.screenshot('team-profiles-connect')
    // A wrong password is refused, said on the form; the field is emptied.
    await page.getByTestId('workspace-url').locator('input').fill(url('alice'))
    await page.getByTestId('workspace-password').locator('input').fill('wrong')
    await page.getByTestId('workspace-password').locator('input').press('Enter')
    await expect
      .poll(() => page.getByTestId('workspace-error').textContent())
      .toMatch(/^The team workspace said no.*refused the login alice@127\.0\.0\.1.*\(team_login_failed\)$/)
    expect(await page.getByTestId('workspace-password').locator('input').inputValue()).toBe('')
    await connect(harness, 'alice')
    expect(await page.getByTestId('workspace-role').textContent()).toBe('preparer')
    await harness.screenshot('team-profiles-connected')

    // Reconcile: the session of her own, shared with s (main asks first).
    await page.getByTestId('nav-reconcile').click()
    await page.getByTestId('sessions-table').waitFor()
    await page.getByTestId('shared-sessions').waitFor()
    await blur(page)
    await page.keyboard.press('s')
    await page.getByTestId('team-bar').waitFor({ timeout: 60_000 })
    expect(harness.host.ui.confirmations.at(-1)?.title).toBe('Share this session with the workspace?')
    expect(await page.getByTestId('team-state').textContent()).toBe('Open')
    expect(await page.getByTestId('team-people').textContent()).toBe('Prepared by alice')
    // The header shows the workspace's profile: no API key, test data.
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toMatch(/^Team postgres on 127\.0\.0\.1 \(test\)$/)

    // a accepts the selected suggestion: sent to the workspace, back with her name.
    await page.getByTestId('item-0').click()
    await blur(page)
    await page.keyboard.press('a')
    await expect.poll(() => page.getByTestId('item-0').innerText()).toMatch(/accepted/)
    await page.keyboard.press('h')
    await page.getByTestId('team-history').waitFor()
    await expect.poll(() => page.getByTestId('team-history').innerText()).toMatch(/Suggestion accepted\s+alice/)
    await harness.screenshot('team-review-preparer')

    // s submits it for review (asked first); it is then read-only to her.
    await page.keyboard.press('s')
    await page.getByRole('button', { name: 'Submit', exact: true }).click()
    await expect.poll(() => page.getByTestId('team-state').textContent()).toBe('Submitted for review')
    expect(await page.getByTestId('team-read-only').textContent()).toMatch(/read-only to its preparers/)
    expect(await page.getByTestId('action-accept').count()).toBe(0)
    expect(harness.pageErrors).toEqual([])
    await harness.close()
    harness = undefined
  })

  it('a reviewer opens it from the workspace, comments on an item, and approves it; nothing he cannot do is offered', async () => {
    harness = await startRendererHarness()
    const { page } = harness
    await page.goto(harness.baseUrl)
    await connect(harness, 'bob')
    expect(await page.getByTestId('workspace-role').textContent()).toBe('reviewer')

    await page.getByTestId('nav-reconcile').click()
    await page.getByTestId('shared-table').waitFor()
    const row = page.getByTestId('shared-table').locator('tbody tr').first()
    await expect.poll(() => row.innerText()).toMatch(/October[\s\S]*submitted for review[\s\S]*alice/)
    await harness.screenshot('team-shared-sessions')
    // w goes to the list; Enter downloads and opens the session here.
    await blur(page)
    await page.keyboard.press('w')
    await page.keyboard.press('Enter')
    await page.getByTestId('team-bar').waitFor({ timeout: 60_000 })
    expect(await page.getByTestId('team-read-only').textContent()).toMatch(
      /You review this session: comment on its items \(c\), then approve it/
    )
    expect(await page.getByTestId('team-approve').count()).toBe(1)
    expect(await page.getByTestId('action-accept').count()).toBe(0)
    // The preparer's decision is there with her name.
    await page.getByTestId('item-0').click()
    await blur(page)
    await page.keyboard.press('a')
    await page.keyboard.press('c')
    await page.getByTestId('team-words-reason').locator('input').fill('Fee netted? Please attach the bank advice.')
    await page.getByTestId('team-words-reason').locator('input').press('Enter')
    await expect.poll(() => page.getByTestId('item-0').innerText()).toMatch(/1 comment\(s\), last by bob/)
    await blur(page)
    await page.keyboard.press('Enter')
    await page.getByTestId('item-team-comments').waitFor()
    expect(await page.getByTestId('item-team-comments').innerText()).toMatch(/Fee netted\? Please attach the bank advice\.[\s\S]*bob/)
    await harness.screenshot('team-review-reviewer-details')
    await page.keyboard.press('Escape')

    // p approves (asked first): locked for everyone, his approval in force.
    await blur(page)
    await page.keyboard.press('p')
    await page.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => page.getByTestId('team-state').textContent()).toBe('Approved')
    expect(await page.getByTestId('team-people').textContent()).toBe('Prepared by alice, reviewed by bob')
    await blur(page)
    await page.keyboard.press('h')
    await expect.poll(() => page.getByTestId('team-history').innerText()).toMatch(/approved\s+bob[\s\S]*in force/)
    expect(await page.getByTestId('team-read-only').textContent()).toMatch(/Approved by bob: locked for everyone/)
    await harness.screenshot('team-review-approved')
    expect(harness.pageErrors).toEqual([])
  })
})
