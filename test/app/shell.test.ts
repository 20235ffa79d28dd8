// The shell's loose ends: the renderer served from app:// (never a file outside it), the dev server URL compiled out of
// production builds, and the built host bundle running as a plain Node child.
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { nodeHostLauncher } from '../../src/main/host/node-launcher'
import { HostSupervisor } from '../../src/main/host/supervisor'
import { APP_ENTRY_URL, contentTypeFor, resolveAppAsset } from '../../src/main/security'
import { testHostConfig } from '../support/app-env'
import { PROJECT_ROOT } from '../support/renderer-harness'

describe('app:// scheme', () => {
  const root = '/opt/ledgerline/out/renderer'
  const resolve = (url: string): string | null => resolveAppAsset(url, root, path.posix)

  it('serves files of the built renderer', () => {
    expect(APP_ENTRY_URL).toBe('app://ledgerline/index.html')
    expect(resolve('app://ledgerline/index.html')).toBe(`${root}/index.html`)
    expect(resolve('app://ledgerline/')).toBe(`${root}/index.html`)
    expect(resolve('app://ledgerline/assets/index-abc.js?v=1#x')).toBe(`${root}/assets/index-abc.js`)
    expect(resolve('app://ledgerline/assets/Na%C3%AFve.css')).toBe(`${root}/assets/Naïve.css`)
    expect(contentTypeFor(`${root}/assets/index-abc.js`)).toMatch(/^text\/javascript/)
  })

  it('never reaches outside the renderer folder or another host', () => {
    // Dot segments are resolved by the URL itself, inside the folder; encoded ones, slashes, NULs and bad escapes are refused.
    expect(resolve('app://ledgerline/../../etc/passwd')).toBe(`${root}/etc/passwd`)
    for (const url of [
      'app://ledgerline/%2e%2e/%2e%2e/etc/passwd',
      'app://ledgerline/assets/..%2f..%2f..%2fetc%2fpasswd',
      'app://ledgerline/..%5c..%5cwindows%5cwin.ini',
      'app://ledgerline/assets/%00.js',
      'app://ledgerline/%E0%A4%A',
      'app://other/index.html',
      'app://user:pw@ledgerline/index.html',
      'file:///etc/passwd',
      'https://ledgerline/index.html',
      'not a url'
    ]) {
      const file = resolve(url)
      expect(file === null || file.startsWith(`${root}/`), url).toBe(true)
      if (!url.includes('%2e%2e')) expect(file, url).toBeNull()
    }
  })
})

describe('production builds', () => {
  it('honour ELECTRON_RENDERER_URL only in development builds: a build-time flag, compiled out of this one', () => {
    const source = readFileSync(path.join(PROJECT_ROOT, 'src/main/index.ts'), 'utf8')
    expect(source).toMatch(/const devServerUrl = __LEDGERLINE_DEV_BUILD__ \? process\.env\['ELECTRON_RENDERER_URL'\] : undefined/)
    expect(source).not.toMatch(/isPackaged[^\n]*ELECTRON_RENDERER_URL|ELECTRON_RENDERER_URL[^\n]*isPackaged/)
    expect(readFileSync(path.join(PROJECT_ROOT, 'electron.vite.config.ts'), 'utf8')).toMatch(
      /__LEDGERLINE_DEV_BUILD__: JSON\.stringify\(command === 'serve'\)/
    )
    // npm test builds first (electron-vite build): the shipped main bundle has no trace of the variable.
    const built = readFileSync(path.join(PROJECT_ROOT, 'out/main/index.js'), 'utf8')
    expect(built).not.toContain('ELECTRON_RENDERER_URL')
    expect(built).toContain('app://ledgerline/index.html')
  })

  it('bundle the service host so it runs on its own (out/main/host.js, as a plain Node child here)', { timeout: 30_000 }, async () => {
    const supervisor = new HostSupervisor({
      launch: nodeHostLauncher({ entry: path.join(PROJECT_ROOT, 'out/main/host.js') }),
      config: testHostConfig(),
      ui: { confirm: async () => false, chooseSaveFile: async () => null, chooseOpenFile: async () => null },
      onEvent: () => {}
    })
    await supervisor.start()
    const info = await supervisor.call('app:info', undefined)
    expect(info).toMatchObject({ ok: true, value: { name: 'Ledgerline', runtime: { node: process.versions.node } } })
    await supervisor.stop()
  })
})
