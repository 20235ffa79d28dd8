// Packaging: installers for three systems, the native SQLite build unpacked from app.asar, the fuses flipped on the real
// binary layout, and one data folder for the app and the CLI on every OS.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultDataDir } from '../../src/main/app/paths'
import { PROJECT_ROOT } from '../support/renderer-harness'

const require = createRequire(__filename)
const config = require(join(PROJECT_ROOT, 'electron-builder.config.cjs')) as Record<string, unknown> & {
  asarUnpack: string[]
  afterPack: string
}
const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  name: string
  productName?: string
  scripts: Record<string, string>
}
const fuses = require('@electron/fuses') as typeof import('@electron/fuses')
type Matcher = (path: string, pattern: string, options?: object) => boolean
const matcherModule = require('minimatch') as Matcher | { minimatch: Matcher }
const minimatch: Matcher = typeof matcherModule === 'function' ? matcherModule : matcherModule.minimatch
const { SENTINEL } = require('@electron/fuses/dist/constants') as { SENTINEL: string }
const afterPack = require(join(PROJECT_ROOT, 'scripts/after-pack.cjs')) as ((context: object) => Promise<void>) & {
  LEDGERLINE_FUSES: Record<number, boolean>
}

/** Where Electron puts userData: appData + the app's name, which is package.json's productName (else name). */
function electronUserData(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  const appData =
    platform === 'win32'
      ? (env['APPDATA'] as string)
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : env['XDG_CONFIG_HOME'] || join(home, '.config')
  return join(appData, pkg.productName ?? pkg.name)
}

describe('packaging', () => {
  it('builds AppImage and deb, NSIS and dmg with `npm run dist`, named Ledgerline like package.json', () => {
    expect(config['productName']).toBe('Ledgerline')
    expect(pkg.productName).toBe('Ledgerline')
    expect(config['linux']).toMatchObject({ target: ['AppImage', 'deb'] })
    expect(config['win']).toMatchObject({ target: ['nsis'] })
    expect(config['mac']).toMatchObject({ target: ['dmg'] })
    expect(pkg.scripts['dist']).toMatch(/electron-vite build && electron-builder --config electron-builder\.config\.cjs/)
  })

  it('packs the app into app.asar with better-sqlite3 and keytar native builds unpacked beside it', () => {
    expect(config['asar']).toBe(true)
    expect(config['npmRebuild']).toBe(true)
    const unpacked = (path: string): boolean => config.asarUnpack.some((pattern) => minimatch(path, pattern, { dot: true }))
    expect(unpacked('node_modules/better-sqlite3/build/Release/better_sqlite3.node')).toBe(true)
    expect(unpacked('node_modules/keytar/build/Release/keytar.node')).toBe(true)
    expect(unpacked('out/main/index.js')).toBe(false)
    expect(unpacked('node_modules/better-sqlite3/lib/database.js')).toBe(false)
    // The development copy built for `npm start` never ships: packaged, better-sqlite3 finds its own unpacked build.
    expect(config['files']).toContain('!node_modules/.ledgerline-electron/**')
    const shell = readFileSync(join(PROJECT_ROOT, 'src/main/index.ts'), 'utf8')
    expect(shell).toMatch(/const electronSqliteBinding = app\.isPackaged\s*\?\s*undefined\s*:/)
  })

  it('flips the fuses on the packaged binary: no RunAsNode, NODE_OPTIONS or --inspect; cookie encryption, asar integrity, asar only', async () => {
    expect(existsSync(join(PROJECT_ROOT, config.afterPack))).toBe(true)
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-fuses-'))
    // A stand-in binary with Electron's fuse wire: the sentinel, version 1, eight fuses all "inherit from the build" (enabled).
    const wire = Buffer.concat([
      Buffer.from('\x7fELF…padding…'),
      Buffer.from(SENTINEL),
      Buffer.from([1, 8]),
      Buffer.alloc(8, 49),
      Buffer.from('…rest')
    ])
    const binary = join(dir, 'ledgerline')
    writeFileSync(binary, wire)
    await afterPack({
      appOutDir: dir,
      electronPlatformName: 'linux',
      arch: 1,
      packager: { executableName: 'ledgerline', appInfo: { productFilename: 'Ledgerline' } }
    })
    const flipped = await fuses.getCurrentFuseWire(binary)
    const state = (option: number): string => String.fromCharCode(flipped[option as keyof typeof flipped] as number)
    const { FuseV1Options: F } = fuses
    expect(
      [
        F.RunAsNode,
        F.EnableNodeOptionsEnvironmentVariable,
        F.EnableNodeCliInspectArguments,
        F.LoadBrowserProcessSpecificV8Snapshot,
        F.GrantFileProtocolExtraPrivileges
      ].map(state)
    ).toEqual(['0', '0', '0', '0', '0'])
    expect([F.EnableCookieEncryption, F.EnableEmbeddedAsarIntegrityValidation, F.OnlyLoadAppFromAsar].map(state)).toEqual(['1', '1', '1'])

    // The Windows and macOS layouts name the binary the way electron-builder lays them out.
    const win = join(dir, 'Ledgerline.exe')
    copyFileSync(join(dir, 'ledgerline'), win)
    await afterPack({ appOutDir: dir, electronPlatformName: 'win32', arch: 1, packager: { appInfo: { productFilename: 'Ledgerline' } } })
    const macFramework = join(dir, 'Ledgerline.app', 'Contents', 'Frameworks', 'Electron Framework.framework')
    mkdirSync(macFramework, { recursive: true })
    writeFileSync(join(macFramework, 'Electron Framework'), wire)
    await afterPack({ appOutDir: dir, electronPlatformName: 'darwin', arch: 1, packager: { appInfo: { productFilename: 'Ledgerline' } } })
    expect(String.fromCharCode((await fuses.getCurrentFuseWire(join(dir, 'Ledgerline.app')))[F.RunAsNode] as number)).toBe('0')
  })

  it('gives the app and the CLI the same data folder on every OS', () => {
    const home = '/home/ada'
    for (const [platform, env] of [
      ['linux', {}],
      ['linux', { XDG_CONFIG_HOME: '/srv/config' }],
      ['darwin', {}],
      ['win32', { APPDATA: 'C:\\Users\\Ada\\AppData\\Roaming' }]
    ] as const) {
      expect(defaultDataDir(platform, env, home), platform).toBe(electronUserData(platform, env, home))
    }
    // And main sets it explicitly, so a renamed package cannot split them again.
    expect(readFileSync(join(PROJECT_ROOT, 'src/main/index.ts'), 'utf8')).toMatch(/app\.setPath\('userData', defaultDataDir\(\)\)/)
  })
})
