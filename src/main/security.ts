// The window's security settings in one plain module, so tests can pin them and index.ts only applies them.

/**
 * Content-Security-Policy for the renderer. Styles allow 'unsafe-inline' because Naive UI
 * injects its generated CSS as <style> elements; scripts, connections and everything else do not.
 * The renderer makes no network calls: connect-src is 'none'.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "frame-ancestors 'none'"
].join('; ')

/** The same policy for the index.html meta tag: browsers ignore frame-ancestors there (the header carries it). */
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ')

/** The dev server needs its own origin and HMR websocket; used only by `electron-vite dev`. */
export function devContentSecurityPolicy(devServerUrl: string): string {
  const origin = new URL(devServerUrl).origin
  const ws = origin.replace(/^http/, 'ws')
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${origin}`).replace(
    "connect-src 'none'",
    `connect-src ${origin} ${ws}`
  )
}

/** webPreferences that must never be weakened; test/security/window.test.ts pins every one. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    // Middle-click must not open links in new windows (Electronegativity AUXCLICK).
    disableBlinkFeatures: 'Auxclick'
  } as const
}

export function mainWindowOptions(preloadPath: string) {
  return {
    width: 1320,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Ledgerline',
    autoHideMenuBar: false,
    webPreferences: secureWebPreferences(preloadPath)
  } as const
}

/** Web pages the app may open in the user's browser; every other link is refused. */
export const EXTERNAL_LINK_ALLOW_LIST: readonly string[] = ['https://www.iso.org/iso-4217-currency-codes.html']

export function isAllowedExternalUrl(candidate: string): boolean {
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false
  return EXTERNAL_LINK_ALLOW_LIST.some((allowed) => {
    const entry = new URL(allowed)
    return url.origin === entry.origin && url.pathname === entry.pathname
  })
}

/** Permission requests (camera, notifications, geolocation, …): the app needs none, so all are denied. */
export const PERMISSIONS_GRANTED: readonly string[] = []

/** The privileged scheme the window loads the renderer from (not file://): a real origin, and nothing outside the renderer folder. */
export const APP_SCHEME = 'app'
export const APP_HOST = 'ledgerline'
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * The file under `root` an app:// request may read, or null: only this host, no encoded slashes
 * or backslashes, no dot segments, nothing outside the folder the built renderer lives in.
 */
export function resolveAppAsset(
  requestUrl: string,
  root: string,
  pathApi: { resolve(...parts: string[]): string; sep: string }
): string | null {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return null
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username || url.password) return null
  const raw = url.pathname
  if (/%2f|%5c|%00/i.test(raw) || raw.includes('\\')) return null
  let path: string
  try {
    path = decodeURIComponent(raw)
  } catch {
    return null
  }
  const segments = path.split('/').filter((s) => s !== '')
  if (segments.some((s) => s === '.' || s === '..' || s.includes('\0'))) return null
  const base = pathApi.resolve(root)
  const file = pathApi.resolve(base, ...(segments.length === 0 ? ['index.html'] : segments))
  return file.startsWith(base + pathApi.sep) ? file : null
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf'
}

export function contentTypeFor(file: string): string {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase()
  return CONTENT_TYPES[ext] ?? 'application/octet-stream'
}
