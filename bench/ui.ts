// The screens in Chromium at scale: the review with a 1,000,000-item session against a 10-item one (opening, scrolling, a decision), then the record workspace with a million payments (records-ui.ts).
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { ReconService } from '../src/main/reconcile/service'
import { itemColumns } from '../src/main/reconcile/item-filters'
import { summarise } from '../src/main/reconcile/totals'
import { DEFAULT_SETTINGS, shortItemKey, type ReconItem } from '../src/shared/reconcile'
import { PROJECT_ROOT, RENDERER_DIR, startRendererHarness, type RendererHarness } from '../test/support/renderer-harness'
import { fmt, line } from './common'
import { percentile } from './stats'
import { recordsUiBench } from './records-ui'

const SUGGESTIONS = 12
const settings = { ...DEFAULT_SETTINGS, netOfFees: false }

/** Item k of a session: the first few are suggestions (1:1, same amount), then mostly matches with a share of exceptions, in content order. */
function item(k: number): ReconItem {
  const day = `2026-10-${String(1 + (Math.floor((k / 1_000_000) * 28) % 28)).padStart(2, '0')}`
  const amount = 10_000 + ((k * 7919) % 5_000_000)
  const pid = `pay_${k.toString(36).padStart(6, '0')}`
  const fid = `f:${k.toString(36)}`
  const provider = {
    id: pid,
    reference: `ORD-${String(k).padStart(8, '0')}`,
    serviceReference: null,
    date: day,
    amountMinor: amount,
    feesMinor: 0,
    currency: 'NGN',
    status: 'successful',
    channel: 'card',
    name: 'Ada Obi'
  }
  const file = {
    id: fid,
    fileId: 'bench',
    line: k + 2,
    date: day,
    reference: provider.reference,
    description: 'NIP TRANSFER',
    counterparty: null,
    amountMinor: amount,
    currency: 'NGN'
  }
  const base = { score: null, decision: null, note: null, reasonCode: null, resolved: false, decidedBy: null, decidedAt: null }
  if (k < SUGGESTIONS)
    return {
      ...base,
      key: `${pid}|${fid}`,
      outcome: 'suggested',
      provider: [provider],
      file: [{ ...file, reference: null, description: 'TRANSFER FROM ADA OBI' }],
      differenceMinor: 0,
      score: 10,
      reasons: ['amount equal +3', 'date same day +3', 'text 100% alike +4']
    }
  if (k % 50 === 7)
    return {
      ...base,
      key: `${pid}|`,
      outcome: 'only_in_provider',
      provider: [provider],
      file: [],
      differenceMinor: null,
      reasons: ['not in the file']
    }
  if (k % 50 === 9)
    return {
      ...base,
      key: `|${fid}`,
      outcome: 'only_in_file',
      provider: [],
      file: [{ ...file, reference: null, description: 'BANK CHARGE', amountMinor: -5250 }],
      differenceMinor: null,
      reasons: ['no provider record matches']
    }
  return {
    ...base,
    key: `${pid}|${fid}`,
    outcome: 'matched',
    provider: [provider],
    file: [file],
    differenceMinor: 0,
    reasons: ["reference: the file's reference is the provider's reference", 'amount: equal']
  }
}

/** A session of n stored items (as a run stores them, with its totals) in the cache the harness's host uses. */
async function storedSession(db: Database.Database, n: number): Promise<string> {
  const service = new ReconService(db)
  const imported = await service.importStatement({
    profileId: 'sandbox',
    name: `bench-${n}.csv`,
    bytes: Buffer.from(`Date,Reference,Amount\n2026-10-01,B-${n},1.00\n`),
    mapping: { defaultCurrency: 'NGN' },
    ifSameFile: 'import-again'
  })
  if (imported.status !== 'imported') throw new Error(`bench statement not stored: ${imported.status}`)
  const session = service.createSession({
    profileId: 'sandbox',
    name: `Bench, ${fmt(n)} items`,
    source: 'payments',
    from: '2026-10-01',
    to: '2026-10-31',
    timeZone: 'UTC',
    settings,
    fileIds: [imported.file.id]
  })
  const insert = db.prepare(
    'insert into recon_items (session_id, position, item_key, short_key, outcome, data, currency, day, provider_minor, file_minor, search) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
  )
  const all: ReconItem[] = []
  db.transaction(() => {
    for (let k = 0; k < n; k++) {
      const it = item(k)
      all.push(it)
      const c = itemColumns(it)
      insert.run(
        session.id,
        k,
        it.key,
        shortItemKey(it.key),
        it.outcome,
        JSON.stringify(it),
        c.currency,
        c.day,
        c.providerMinor,
        c.fileMinor,
        c.search
      )
    }
    db.prepare('update recon_sessions set last_run_at = ?, summary = ? where id = ?').run(
      new Date().toISOString(),
      JSON.stringify({ settings, totals: summarise(all, { settings, periodTo: '2026-10-31' }, []) }),
      session.id
    )
  })()
  return session.id
}

interface ScreenRun {
  openMs: number
  frameWorkP95: number
  frameIntervalP95: number
  pageTurnMs: number | null
  decisionMs: number[]
}

/** Frame by frame, scrolls the items table 60 px a frame for 150 frames, timing each frame's own work (scroll, layout) and the gap between frames. */
const SCROLL_SCRIPT = `new Promise((done) => {
  const body = document.querySelector('[data-testid="items-table"] .n-scrollbar-container') || document.querySelector('[data-testid="items-table"] .n-data-table-base-table-body')
  const work = [], gaps = []
  let last = performance.now(), frames = 0, down = true
  const step = (now) => {
    gaps.push(now - last); last = now
    const t = performance.now()
    if (body.scrollTop + body.clientHeight >= body.scrollHeight - 2) down = false
    if (body.scrollTop <= 0) down = true
    body.scrollTop += down ? 60 : -60
    body.getBoundingClientRect(); document.body.offsetHeight
    work.push(performance.now() - t)
    if (++frames < 150) requestAnimationFrame(step); else done({ work, gaps: gaps.slice(1) })
  }
  requestAnimationFrame(step)
})`

/** Polls until `done` holds, failing after 20 s (a broken screen fails the bench instead of hanging it). */
async function until(page: RendererHarness['page'], what: string, done: () => Promise<boolean>): Promise<void> {
  const end = performance.now() + 20_000
  while (!(await done())) {
    if (performance.now() > end) throw new Error(`the review never showed ${what}`)
    await page.waitForTimeout(1)
  }
}

async function measure(harness: RendererHarness, sessionId: string, decisions = 8): Promise<ScreenRun> {
  const { page } = harness
  await page.evaluate(`location.hash = '#/reconcile'`)
  await page.getByTestId('recon-import').waitFor()
  let t = performance.now()
  await page.evaluate(`location.hash = '#/reconcile/${sessionId}'`)
  await page.getByTestId('item-0').waitFor()
  await page.getByTestId('summary-bar').waitFor()
  const openMs = performance.now() - t
  const frames = (await page.evaluate(SCROLL_SCRIPT)) as { work: number[]; gaps: number[] }
  // The next page, where there is one (a 10-item session has a single page).
  const shown = async (): Promise<string> => (await page.getByTestId('items-shown').textContent()) ?? ''
  const first = await shown()
  let pageTurnMs: number | null = null
  if (await page.getByTestId('items-next').isEnabled()) {
    t = performance.now()
    await page.keyboard.press('Alt+ArrowRight')
    await until(page, 'the next page', async () => (await shown()) !== first)
    pageTurnMs = performance.now() - t
    await page.keyboard.press('Alt+ArrowLeft')
    await until(page, 'the first page again', async () => (await shown()) === first)
  }
  // Decisions: accept the suggestions at the top one by one; each is timed from the key to the totals showing it.
  const chip = async (): Promise<number> =>
    Number(/Suggested (\d+)/.exec((await page.getByTestId('summary-bar').textContent()) ?? '')?.[1] ?? 0)
  await page.evaluate(`document.activeElement && document.activeElement.blur()`)
  const decisionMs: number[] = []
  for (let k = 0; k < decisions; k++) {
    const before = await chip()
    t = performance.now()
    await page.keyboard.press('a')
    await until(page, 'the accepted suggestion in the totals', async () => (await chip()) === before - 1)
    decisionMs.push(performance.now() - t)
    await page.keyboard.press('j')
  }
  const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b)
  return {
    openMs,
    frameWorkP95: percentile(sorted(frames.work), 95),
    frameIntervalP95: percentile(sorted(frames.gaps), 95),
    pageTurnMs,
    decisionMs
  }
}

export async function uiBench(): Promise<void> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    const build = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8'
    })
    if (build.status !== 0) throw new Error(`could not build the renderer: ${build.stderr.trim().split('\n').pop()}`)
  }
  console.log(
    '\nReview screen in Chromium (headless, 1280×800): a 1,000,000-item session against a 10-item one (baseline), same page, same host'
  )
  const harness = await startRendererHarness()
  try {
    await harness.page.goto(harness.baseUrl)
    await harness.page.getByTestId('profile-name').waitFor()
    const db = new Database(harness.host.config.paths.cacheDatabase)
    db.pragma('busy_timeout = 10000')
    const started = performance.now()
    const big = await storedSession(db, 1_000_000)
    const small = await storedSession(db, 10)
    db.close()
    line('stored a 1,000,000-item session (setup, not a figure)', `${fmt((performance.now() - started) / 1000, 1)} s`)
    // One pass on the small session first, so neither figure includes the screen's first load and compile.
    await measure(harness, small, 0)
    const base = await measure(harness, small)
    const run = await measure(harness, big)
    const ratio = (a: number, b: number): string => `${fmt(a / Math.max(b, 0.01), 2)}× the 10-item session`
    line(
      'opening the review to first rows painted',
      `${fmt(run.openMs)} ms`,
      `target ≤ 1,000 ms; ${ratio(run.openMs, base.openMs)} (${fmt(base.openMs)} ms)`
    )
    line(
      'scrolling: work per frame, p95 (scroll, layout, script)',
      `${fmt(run.frameWorkP95, 2)} ms`,
      `target ≤ 16 ms; ${ratio(run.frameWorkP95, base.frameWorkP95)}`
    )
    line(
      'scrolling: time between frames, p95',
      `${fmt(run.frameIntervalP95, 1)} ms`,
      `${ratio(run.frameIntervalP95, base.frameIntervalP95)} (one frame at 60 Hz is 16.7 ms)`
    )
    if (run.pageTurnMs !== null)
      line('next page (Alt+→) to rows shown', `${fmt(run.pageTurnMs)} ms`, `${fmt(run.pageTurnMs / run.openMs, 2)}× opening the first page`)
    const median = (xs: number[]): number =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50
      )
    line(
      'a decision (accept) to updated totals, median of 8',
      `${fmt(median(run.decisionMs))} ms`,
      `target ≤ 100 ms; ${ratio(median(run.decisionMs), median(base.decisionMs))} (${fmt(median(base.decisionMs))} ms); slowest ${fmt(Math.max(...run.decisionMs))} ms`
    )
  } finally {
    await harness.close()
    // The million items take a few GB on disk: gone with the run.
    rmSync(harness.host.config.paths.userData, { recursive: true, force: true })
  }
  await recordsUiBench()
}
