// The records:* calls through main's gate to the real host process: windows by keyset and by jump agree, exact totals, sorting, Ctrl+K, the drawer's relations, and the actions (live ones confirmed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isMoneyCell, type RecordQuery, type RecordRow, type RowsResult } from '../../src/shared/records'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { startTestHost, syncAndWait, valueOf, type TestHost } from '../support/app-env'

let host: TestHost
let live: Sandbox

const rows = async (
  query: RecordQuery,
  offset: number,
  limit: number,
  extra: { anchor?: RowsResult['next']; total?: number } = {}
): Promise<RowsResult> =>
  valueOf(
    await host.call('records:rows', {
      query,
      offset,
      limit,
      ...(extra.anchor ? { anchor: extra.anchor } : {}),
      ...(extra.total !== undefined ? { total: extra.total } : {})
    })
  )

/** Every row of a table, window after window by keyset. */
async function walk(query: RecordQuery, size = 400): Promise<RecordRow[]> {
  const all: RecordRow[] = []
  let window = await rows(query, 0, size)
  all.push(...window.rows)
  while (window.next) {
    window = await rows(query, window.next.offset, size, { anchor: window.next })
    all.push(...window.rows)
  }
  return all
}

beforeAll(async () => {
  host = await startTestHost()
  live = await startSandbox({ rateLimits: false })
  // The built-in Sandbox has the same seed, so the same bulk files.
  valueOf(await host.call('sync:track', { kind: 'bulk_file', value: live.bulkFileIds.test[1] as string }))
  await syncAndWait(host)
}, 120_000)
afterAll(async () => {
  await host.close()
  await live.close()
})

describe('records:* through the gate and the host', { timeout: 60_000 }, () => {
  it('reads any window of a table by keyset or by a jump from the nearer end, and both agree', async () => {
    const query: RecordQuery = { resource: 'payments' }
    const all = await walk(query)
    const totals = valueOf(await host.call('records:totals', { query }))
    expect(all.length).toBe(totals.total)
    expect(new Set(all.map((r) => r.key)).size).toBe(all.length)
    // Newest first.
    const dates = all.map((r) => Date.parse(String(r.cells['created'])))
    expect(dates.every((d, i) => i === 0 || d <= (dates[i - 1] as number))).toBe(true)
    for (const offset of [0, 1234, Math.floor(all.length / 2) + 7, all.length - 50]) {
      const jumped = await rows(query, offset, 50, { total: all.length })
      expect(
        jumped.rows.map((r) => r.key),
        `window at ${offset}`
      ).toEqual(all.slice(offset, offset + 50).map((r) => r.key))
    }
    // The last window of all ends the table: no anchor after it.
    expect((await rows(query, all.length - 50, 50, { total: all.length })).next).toBeNull()
  })

  it('sums the filtered set exactly per currency and sorts amounts within each currency', async () => {
    const query: RecordQuery = { resource: 'payments', status: 'successful', sort: { column: 'amount', desc: true } }
    const all = await walk(query)
    const totals = valueOf(await host.call('records:totals', { query }))
    expect(totals.total).toBe(all.length)
    for (const c of totals.byCurrency) {
      const mine = all.filter((r) => isMoneyCell(r.cells['amount']) && r.cells['amount'].currency === c.currency)
      expect(mine.length).toBe(c.count)
      expect(c.sumMinor).toBe(mine.reduce((sum, r) => sum + ((r.cells['amount'] as { minor: number }).minor ?? 0), 0))
      const amounts = mine.map((r) => (r.cells['amount'] as { minor: number }).minor)
      expect(amounts.every((a, i) => i === 0 || a <= (amounts[i - 1] as number))).toBe(true)
    }
    expect(
      await host.call('records:rows', { query: { resource: 'payments', sort: { column: 'customer', desc: false } }, offset: 0, limit: 5 })
    ).toMatchObject({ ok: false, error: { code: 'invalid_filter' } })
    expect(await host.call('records:totals', { query: { resource: 'banks', minAmount: '5' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_filter' }
    })
  })

  it('has a table for every resource, banks and virtual accounts included, with transfers per bulk file', async () => {
    for (const resource of ['transfers', 'plans', 'subscriptions', 'banks'] as const) {
      const totals = valueOf(await host.call('records:totals', { query: { resource } }))
      expect(totals.total, resource).toBeGreaterThan(0)
      expect((await walk({ resource })).length, resource).toBe(totals.total)
    }
    const files = valueOf(await host.call('records:bulkFiles', undefined))
    expect(files).toEqual([{ id: live.bulkFileIds.test[1], transfers: expect.any(Number) }])
    const file = files[0] as { id: string; transfers: number }
    expect(file.transfers).toBeGreaterThan(0)
    expect((await walk({ resource: 'transfers', bulkFile: file.id })).length).toBe(file.transfers)
    expect((await walk({ resource: 'transfers', bulkFile: '' })).length).toBe(0)
    const banks = await rows({ resource: 'banks', text: 'bank', sort: { column: 'name', desc: false } }, 0, 500)
    const names = banks.rows.map((r) => String(r.cells['name']))
    expect(names.length).toBeGreaterThan(0)
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  })

  it('finds records from one box, grouped by table, and opens each with its fields, raw JSON and relations', async () => {
    const withPlan = (await walk({ resource: 'payments' })).find(
      (r) => r.cells['plan'] !== null && r.cells['reference'] !== null
    ) as RecordRow
    const found = valueOf(await host.call('records:find', { text: String(withPlan.cells['reference']) }))
    expect(found[0]).toMatchObject({ resource: 'payments' })
    expect(found[0]?.records.map((r) => r.key)).toContain(withPlan.key)
    expect(valueOf(await host.call('records:find', { text: '"( *' }))).toEqual([])
    // Each line says its amount with its ISO code and separators and its status in words, as every screen does.
    const moneyLead = /^[A-Z]{3}\s-?[\d,]+(\.\d+)? · /
    const wordsTail = / · [a-z ]+$/
    for (const r of found[0]?.records ?? []) expect(r.detail).toMatch(new RegExp(`${moneyLead.source}.*${wordsTail.source}`))

    const detail = valueOf(await host.call('records:detail', { resource: 'payments', key: withPlan.key }))
    expect(JSON.parse(detail.raw)).toMatchObject({ id: withPlan.key })
    expect(detail.fields.find((f) => f.label === 'Reference')).toMatchObject({ value: withPlan.cells['reference'], copy: true })
    expect(detail.subtitle).toMatch(/^[A-Z]{3}\s-?[\d,]+(\.\d+)? · [a-z ]+$/)
    const plan = detail.relations.find((r) => r.label === 'Plan')
    expect(plan?.records).toHaveLength(1)
    expect(plan?.records[0]?.detail).toMatch(/^[A-Z]{3}\s[\d,]+(\.\d+)? · [a-z ]+ · [a-z ]+$/)
    // And back: the plan lists this payment among its payments.
    const planDetail = valueOf(await host.call('records:detail', { resource: 'plans', key: plan?.records[0]?.key as string }))
    const payments = planDetail.relations.find((r) => r.label === 'Payments')
    expect(payments?.total).toBeGreaterThan(0)
    expect(await host.call('records:detail', { resource: 'payments', key: 'no-such-payment' })).toMatchObject({
      ok: false,
      error: { code: 'record_not_found' }
    })
  })

  it('authorizes a pending payment step by step, cancels a plan, and funds a test virtual account; each answer is cached at once', async () => {
    const pending = await walk({ resource: 'payments', status: 'pending' })
    let paymentId: string | null = null
    for (const r of pending) {
      const d = valueOf(await host.call('records:detail', { resource: 'payments', key: r.key }))
      if (d.actions.authorizeStep === 'pin') {
        paymentId = r.key
        break
      }
    }
    expect(paymentId).not.toBeNull()
    const afterPin = valueOf(await host.call('records:authorize', { paymentId: paymentId as string, pin: '1234' }))
    expect(afterPin).toMatchObject({ status: 'pending', nextStep: 'otp', message: expect.stringContaining('OTP') })
    const afterOtp = valueOf(await host.call('records:authorize', { paymentId: paymentId as string, otp: '123456' }))
    expect(afterOtp).toMatchObject({ status: 'successful', nextStep: null })
    const settled = valueOf(await host.call('records:detail', { resource: 'payments', key: paymentId as string }))
    expect(settled.actions.authorize).toBe(false)
    expect(settled.fields.find((f) => f.label === 'Fees')?.value).not.toMatchObject({ raw: null })

    const plan = (await rows({ resource: 'plans', status: 'active' }, 0, 1)).rows[0] as RecordRow
    const cancelled = valueOf(await host.call('records:cancelPlan', { planId: plan.key }))
    expect(cancelled.status.toLowerCase()).toBe('cancelled')
    expect(valueOf(await host.call('records:detail', { resource: 'plans', key: plan.key })).actions.cancelPlan).toBe(false)

    const account = valueOf(await host.call('accounts:create', { currency: 'NGN', accountName: 'Invoice 77', amount: '2500.00' }))
    const funded = valueOf(await host.call('records:fund', { accountId: account.id }))
    expect(funded).toMatchObject({
      resource: 'payments',
      status: 'successful',
      message: expect.stringMatching(new RegExp(`^NGN\\s2,500\\.00 paid into ${account.accountNumber}\\.$`))
    })
    const va = valueOf(await host.call('records:detail', { resource: 'virtual_accounts', key: account.id }))
    expect(va.relations.find((r) => r.label === 'Payments into it')?.records.map((r) => r.key)).toEqual([funded.key])
    expect(await host.call('records:fund', { accountId: account.id, amount: '12.345' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_amount' }
    })
  })

  it("funds another test profile's accounts through the simulator address set for it, and says what is missing until then", async () => {
    const profile = valueOf(await host.call('profile:add', { name: 'Acme test', baseUrl: live.baseUrl, key: live.keys.test }))
    valueOf(await host.call('profile:select', { id: profile.id }))
    const account = valueOf(await host.call('accounts:create', { currency: 'GHS', accountName: 'Test 9', amount: '45.50' }))
    expect(valueOf(await host.call('records:detail', { resource: 'virtual_accounts', key: account.id })).actions).toMatchObject({
      fund: false,
      fundUnavailable: expect.stringContaining('funds simulator')
    })
    expect(await host.call('records:fund', { accountId: account.id })).toMatchObject({ ok: false, error: { code: 'no_funds_simulator' } })
    expect(await host.call('profile:setFundsSimulator', { id: profile.id, url: 'ftp://simulator.example.com' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_url' }
    })
    expect(valueOf(await host.call('profile:setFundsSimulator', { id: profile.id, url: `${live.baseUrl}/` })).fundsSimulatorUrl).toBe(
      live.baseUrl
    )
    expect(host.events).toContainEqual({ name: 'profile:changed', payload: { profileId: profile.id, reason: 'updated' } })
    const before = live.requests.filter((r) => r.path.endsWith('/simulator/funds')).length
    expect(valueOf(await host.call('records:fund', { accountId: account.id, amount: '10' }))).toMatchObject({
      status: 'successful',
      message: expect.stringMatching(new RegExp(`^GHS\\s10\\.00 paid into ${account.accountNumber}\\.$`))
    })
    expect(live.requests.filter((r) => r.path.endsWith('/simulator/funds')).length).toBe(before + 1)
    valueOf(await host.call('profile:select', { id: 'sandbox' }))
  })

  it('asks main before a live action, and refuses to simulate funds in a live profile', async () => {
    host.ui.confirmAnswer = true
    const profile = valueOf(await host.call('profile:add', { name: 'Acme live', baseUrl: live.baseUrl, key: live.keys.live }))
    valueOf(await host.call('profile:select', { id: profile.id }))
    await syncAndWait(host)
    const plan = (await rows({ resource: 'plans', status: 'active' }, 0, 1)).rows[0] as RecordRow
    const cancels = (): number => live.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')).length
    host.ui.confirmAnswer = false
    expect(await host.call('records:cancelPlan', { planId: plan.key })).toMatchObject({ ok: false, error: { code: 'not_confirmed' } })
    expect(cancels()).toBe(0)
    expect(host.ui.confirmations.at(-1)?.message).toContain(`Cancel LIVE plan "${String(plan.cells['title'])}"`)
    expect(valueOf(await host.call('records:detail', { resource: 'plans', key: plan.key })).actions.cancelPlan).toBe(true)
    host.ui.confirmAnswer = true
    expect(valueOf(await host.call('records:cancelPlan', { planId: plan.key })).status.toLowerCase()).toBe('cancelled')
    const account = valueOf(await host.call('accounts:create', { currency: 'NGN', accountName: 'Live 1', amount: '10.00' }))
    expect(await host.call('records:fund', { accountId: account.id })).toMatchObject({ ok: false, error: { code: 'test_mode_only' } })
    expect(valueOf(await host.call('records:detail', { resource: 'virtual_accounts', key: account.id })).actions).toMatchObject({
      fund: false,
      fundUnavailable: expect.stringContaining('test mode')
    })
    expect(host.events).toContainEqual({ name: 'profile:changed', payload: { profileId: profile.id, reason: 'selected' } })
  })
})
