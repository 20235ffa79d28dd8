// Pins the window's security settings and CSP, so a later change cannot quietly weaken them.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CONTENT_SECURITY_POLICY,
  devContentSecurityPolicy,
  isAllowedExternalUrl,
  mainWindowOptions,
  META_CONTENT_SECURITY_POLICY,
  PERMISSIONS_GRANTED
} from '../../src/main/security'
import { PROJECT_ROOT, RENDERER_DIR } from '../support/renderer-harness'

function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0] ?? '', d.split(/\s+/).slice(1).join(' ')])
  )
}

describe('BrowserWindow options', () => {
  it('keep every hardening flag', () => {
    const options = mainWindowOptions('/app/out/preload/index.js')
    expect(options.webPreferences).toEqual({
      preload: '/app/out/preload/index.js',
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
      disableBlinkFeatures: 'Auxclick'
    })
    expect(options.show).toBe(false)
  })

  it('are the options the Electron shell actually uses', () => {
    const shell = readFileSync(join(PROJECT_ROOT, 'src/main/index.ts'), 'utf8')
    expect(shell).toMatch(/new BrowserWindow\(options\)/)
    expect(shell).toMatch(/const options: BrowserWindowConstructorOptions = mainWindowOptions\(preloadFile\)/)
    expect(shell).toMatch(/setWindowOpenHandler/)
    expect(shell).toMatch(/'will-navigate'/)
    expect(shell).toMatch(/requestSingleInstanceLock\(\)/)
    expect(shell).toMatch(/setPermissionRequestHandler/)
    expect(shell).not.toMatch(/sandbox:\s*false|contextIsolation:\s*false|nodeIntegration:\s*true/)
  })

  it('no main-process file but the shell (index.ts, shell/, the host entry) imports electron', () => {
    const shellFiles = new Set([join(PROJECT_ROOT, 'src/main/index.ts'), join(PROJECT_ROOT, 'src/main/host/entry.ts')])
    const offenders: string[] = []
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir)) {
        const full = join(dir, entry)
        if (statSync(full).isDirectory()) {
          if (full !== join(PROJECT_ROOT, 'src/main/shell')) walk(full)
        } else if (/\.ts$/.test(entry) && !shellFiles.has(full)) {
          if (/from ['"]electron['"]|require\(['"]electron['"]\)/.test(readFileSync(full, 'utf8'))) offenders.push(full)
        }
      }
    }
    walk(join(PROJECT_ROOT, 'src/main'))
    walk(join(PROJECT_ROOT, 'src/shared'))
    expect(offenders).toEqual([])
  })
})

describe('Content-Security-Policy', () => {
  const csp = directives(CONTENT_SECURITY_POLICY)

  it('allows scripts only from the app itself and no connections at all', () => {
    expect(csp.get('default-src')).toBe("'none'")
    expect(csp.get('script-src')).toBe("'self'")
    expect(csp.get('connect-src')).toBe("'none'")
    expect(csp.get('object-src')).toBe("'none'")
    expect(csp.get('base-uri')).toBe("'none'")
    expect(csp.get('form-action')).toBe("'none'")
    expect(csp.get('frame-src')).toBe("'none'")
    expect(csp.get('frame-ancestors')).toBe("'none'")
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|\*/)
    expect(csp.get('script-src')).not.toMatch(/unsafe-inline/)
  })

  it('is in the built index.html (meta tags cannot carry frame-ancestors, the header does)', () => {
    const html = readFileSync(join(RENDERER_DIR, 'index.html'), 'utf8')
    const match = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)
    expect(match, 'CSP meta tag missing from out/renderer/index.html').not.toBeNull()
    const meta = (match?.[1] ?? '').replaceAll('&#39;', "'")
    expect(meta).toBe(META_CONTENT_SECURITY_POLICY)
    const inMeta = directives(META_CONTENT_SECURITY_POLICY)
    expect([...csp.keys()].filter((name) => !inMeta.has(name))).toEqual(['frame-ancestors'])
    for (const [name, value] of inMeta) expect(value, name).toBe(csp.get(name))
  })

  it('in dev, opens only the dev server origin and its websocket', () => {
    const dev = directives(devContentSecurityPolicy('http://localhost:5173/'))
    expect(dev.get('connect-src')).toBe('http://localhost:5173 ws://localhost:5173')
    expect(dev.get('script-src')).toBe("'self' http://localhost:5173")
  })
})

describe('external links and permissions', () => {
  it('opens only allow-listed https pages', () => {
    expect(isAllowedExternalUrl('https://www.iso.org/iso-4217-currency-codes.html')).toBe(true)
    for (const url of [
      'http://www.iso.org/iso-4217-currency-codes.html',
      'https://www.iso.org/other.html',
      'https://www.iso.org.evil.example/iso-4217-currency-codes.html',
      'https://user:pw@www.iso.org/iso-4217-currency-codes.html',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url'
    ]) {
      expect(isAllowedExternalUrl(url), url).toBe(false)
    }
  })

  it('grants no permission', () => {
    expect(PERMISSIONS_GRANTED).toEqual([])
  })
})
