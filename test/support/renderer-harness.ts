// Drives Debian's Chromium against the built renderer: window.api → main's real gate → the real service host in its own process.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { callNames, eventNames } from '../../src/shared/ipc/contract'
import { createEventEmitter, type EventEmitter } from '../../src/main/ipc/events'
import { createApi } from '../../src/preload/api'
import { startTestHost, type TestHost, type TestHostOptions } from './app-env'
import { serveDirectory, type StaticServer } from './static-server'
import { a11yViolations, describeViolations } from './a11y'

export const PROJECT_ROOT = resolve(__dirname, '../..')
export const RENDERER_DIR = join(PROJECT_ROOT, 'out/renderer')
export const ARTIFACTS_DIR = join(PROJECT_ROOT, 'test-artifacts')
export const CHROMIUM_PATH = process.env['LEDGERLINE_CHROMIUM'] ?? '/usr/bin/chromium'

/** Flags for Chromium on a closed network as root: no sandbox, no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic'
]

export interface RendererHarness {
  page: Page
  baseUrl: string
  /** The service host behind the page's gate, with its scripted dialogs. */
  host: TestHost
  /** Main-to-renderer events, through the same validating emitter Electron uses. */
  events: EventEmitter
  /** Console errors and uncaught page errors seen so far (CSP violations show up here). */
  pageErrors: string[]
  screenshot(name: string): Promise<string>
  close(): Promise<void>
}

/**
 * Waits until the page is still: no CSS transition or animation that ends (not a spinner's endless one) is running, over
 * two frames drawn after the last one finished. A change the page has not reacted to yet (a colour scheme Vue applies on
 * its next tick, whose 0.3 s colour transitions start only then) is waited for too, however slow the machine: the page is
 * looked at again after the frames, and waited on again while anything started meanwhile.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    const running = () => document.getAnimations().filter((a) =>
      a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
    for (;;) {
      await frames()
      const now = running()
      if (now.length === 0) return
      await Promise.all(now.map((a) => a.finished.catch(() => null)))
    }
  })()`)
}

/** The sizes every screen is shot at: the smallest laptop screen an accountant works on, and a common desktop one. */
export const SCREEN_SIZES = [
  { label: '1280x720', width: 1280, height: 720 },
  { label: '1920x1080', width: 1920, height: 1080 }
] as const

/**
 * Shoots the screen as the user sees it at each size, light and dark (the OS's scheme; a theme chosen in the app is shot as
 * chosen), into test-artifacts/e2e/<size>-<theme>/<name>.png, and checks each theme for accessibility at the smaller size.
 * The page is put back to the size and scheme it had, so the test goes on where it was. Returns the files written.
 */
export async function screenshotSet(page: Page, name: string): Promise<string[]> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 }
  // Page code, as text: the test's own types know no DOM.
  const [chosen, osDark] = (await page.evaluate(
    "[localStorage.getItem('ledgerline.theme') ?? 'system', matchMedia('(prefers-color-scheme: dark)').matches]"
  )) as [string, boolean]
  const themes: readonly ('light' | 'dark')[] = chosen === 'light' || chosen === 'dark' ? [chosen] : ['light', 'dark']
  const files: string[] = []
  try {
    for (const theme of themes) {
      await page.emulateMedia({ colorScheme: theme })
      // The app follows the OS's scheme on Vue's next tick: the picture is taken once it has, not of the scheme before.
      // (Polled a frame at a time in the page: the CSP forbids the eval that waitForFunction uses.)
      await page.evaluate(`new Promise((resolve) => {
        const check = () => document.documentElement.classList.contains('dark') === ${String(theme === 'dark')}
          ? resolve(null) : requestAnimationFrame(check)
        check()
      })`)
      for (const size of SCREEN_SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height })
        const dir = join(ARTIFACTS_DIR, 'e2e', `${size.label}-${theme}`)
        await mkdir(dir, { recursive: true })
        const file = join(dir, `${name}.png`)
        // Naive UI animates colours and focus rings for ~0.3 s: the picture shows the state they settle in.
        await settled(page)
        await page.screenshot({ path: file })
        files.push(file)
        const covered = await toastsOverContent(page)
        if (covered.length > 0) throw new Error(`${name} at ${size.label}: a toast covers the screen's content: ${covered.join('; ')}`)
        const spilled = await reviewRowsSpilling(page)
        if (spilled.length > 0)
          throw new Error(`${name} at ${size.label}: a review row's side is wider than its cell: ${spilled.join('; ')}`)
        if (size === SCREEN_SIZES[0]) await checkA11y(page, dir, name)
      }
    }
  } finally {
    await page.setViewportSize(viewport)
    await page.emulateMedia({ colorScheme: osDark ? 'dark' : 'light' })
    await settled(page)
  }
  return files
}

/** Toasts that overlap the header, the screen's content, a dialog or a drawer (they belong in the navigation column's empty lower part). */
async function toastsOverContent(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const boxes = [...document.querySelectorAll('.n-layout-header, .n-layout-content, .n-modal, .n-drawer')].map((e) => e.getBoundingClientRect())
    const out = []
    for (const toast of document.querySelectorAll('.n-message')) {
      const t = toast.getBoundingClientRect()
      if (t.width === 0 || t.height === 0) continue
      if (boxes.some((b) => t.left < b.right && t.right > b.left && t.top < b.bottom && t.bottom > b.top))
        out.push(JSON.stringify(toast.textContent))
    }
    return out
  })()`)) as string[]
}

/** The review's rows whose provider or file side does not fit its cell (its amount drawn over the next column). */
async function reviewRowsSpilling(page: Page): Promise<string[]> {
  return (await page.evaluate(`[...document.querySelectorAll('[data-testid="items-table"] .side')]
    .filter((side) => side.scrollWidth > side.clientWidth + 1)
    .map((side) => JSON.stringify(side.textContent.slice(0, 80)))`)) as string[]
}

/** Every screen a test looks at is checked for accessibility as it is shown; a violation fails the test unless reporting. */
async function checkA11y(page: Page, dir: string, name: string): Promise<void> {
  const violations = await a11yViolations(page)
  if (violations.length === 0) return
  await writeFile(join(dir, `${name}.a11y.json`), JSON.stringify(violations, null, 2))
  if (process.env['LEDGERLINE_A11Y'] !== 'report') throw new Error(describeViolations(name, violations))
}

/** The page-side half of the bridge: the preload's own createApi over exposeBinding instead of ipcRenderer. */
function bridgeScript(): string {
  return `(() => {
  const listeners = new Map();
  const transport = {
    invoke: (name, arg) => window.__ledgerlineInvoke(name, arg),
    subscribe: (event, listener) => {
      let set = listeners.get(event);
      if (!set) { set = new Set(); listeners.set(event, set); }
      set.add(listener);
      return () => { set.delete(listener); };
    }
  };
  Object.defineProperty(window, '__ledgerlineEmit', {
    value: (event, payload) => { for (const listener of listeners.get(event) ?? []) listener(payload); }
  });
  const createApi = ${createApi.toString()};
  Object.defineProperty(window, 'api', {
    value: createApi(${JSON.stringify(callNames)}, ${JSON.stringify(eventNames)}, transport),
    enumerable: true
  });
})();`
}

export async function startRendererHarness(hostOptions: Omit<TestHostOptions, 'trustedPages' | 'onEvent'> = {}): Promise<RendererHarness> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(`No built renderer at ${RENDERER_DIR}: run "npm run build" (npm test does it first).`)
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it (Debian: apt-get install chromium) or set LEDGERLINE_CHROMIUM.`)
  }
  const server: StaticServer = await serveDirectory(RENDERER_DIR)
  let browser: Browser | undefined
  let host: TestHost | undefined
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(msg.text())
    })
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('response', (response) => {
      if (response.status() >= 400) pageErrors.push(`HTTP ${response.status()} for ${response.url()}`)
    })
    const events = createEventEmitter((_channel, event, payload) => {
      // Runs in the page; globalThis there is the window the bridge script set up.
      const deliver = ([name, body]: readonly [string, unknown]): void =>
        (globalThis as unknown as { __ledgerlineEmit(n: string, p: unknown): void }).__ledgerlineEmit(name, body)
      void page.evaluate(deliver, [event, payload] as const).catch(() => undefined)
    })
    const started = await startTestHost({
      ...hostOptions,
      trustedPages: [server.url],
      onEvent: (name, payload) => events.emit(name, payload)
    })
    host = started
    await page.exposeBinding('__ledgerlineInvoke', (source, name: unknown, arg: unknown) =>
      started.gate.dispatch(name, arg, { url: source.frame.url(), isMainFrame: source.frame === source.page.mainFrame() })
    )
    await page.addInitScript({ content: bridgeScript() })
    // ISO days on screen unless a test chooses a locale (the header's "Dates" choice): what a test reads must not hang on Chromium's language.
    await page.addInitScript({
      content: "if (localStorage.getItem('ledgerline.locale') === null) localStorage.setItem('ledgerline.locale', 'iso')"
    })
    const openedBrowser = browser
    return {
      page,
      baseUrl: server.url,
      host: started,
      events,
      pageErrors,
      async screenshot(name) {
        const shots = await screenshotSet(page, name)
        return shots[0] ?? join(ARTIFACTS_DIR, 'e2e', name)
      },
      async close() {
        await openedBrowser.close()
        await started.close()
        await server.close()
      }
    }
  } catch (error) {
    await browser?.close()
    await host?.close()
    await server.close()
    throw error
  }
}
