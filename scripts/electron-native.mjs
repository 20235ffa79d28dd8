// Builds better-sqlite3 for Electron's ABI beside Node's own build, so `npm test` (Node) and `npm start` (Electron) both work in any order.
//
// better-sqlite3 is a V8 addon: one build serves either Node or Electron. npm install builds it for
// Node (tests, CLI). This script makes a second copy for Electron in node_modules/.ledgerline-electron/
// and the Electron main process loads that one through better-sqlite3's `nativeBinding` option.
// keytar uses N-API, which is ABI-stable, so its one build serves both.
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'node_modules', '.ledgerline-electron')
const target = join(outDir, 'better_sqlite3.node')
const stampFile = join(outDir, 'stamp.json')

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))
const electronDir = dirname(require.resolve('electron/package.json'))
const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'))
const stamp = {
  electron: readJson(join(electronDir, 'package.json')).version,
  betterSqlite3: readJson(join(sqliteDir, 'package.json')).version,
  platform: process.platform,
  arch: process.arch
}

function fail(message) {
  console.error(`\nledgerline: ${message}\n`)
  process.exit(1)
}

if (!existsSync(join(electronDir, 'path.txt'))) {
  fail(
    'the Electron binary is not installed (was ELECTRON_SKIP_BINARY_DOWNLOAD set during npm install?).\n' +
      `Fetch it with: node ${join('node_modules', 'electron', 'install.js')}   then run npm start again.`
  )
}

if (existsSync(target) && existsSync(stampFile) && JSON.stringify(readJson(stampFile)) === JSON.stringify(stamp)) {
  process.exit(0)
}

console.log(`ledgerline: building SQLite (better-sqlite3 ${stamp.betterSqlite3}) for Electron ${stamp.electron}; this happens once…`)
const work = join(outDir, 'work')
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
for (const part of ['package.json', 'binding.gyp', 'src', 'deps', 'lib'])
  cpSync(join(sqliteDir, part), join(work, part), { recursive: true })

// A user-level `nodedir` (set on some build machines) would make node-gyp use Node's headers: drop it.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_nodedir$/i.test(key)))
const run = (file, args) => execFileSync(process.execPath, [file, ...args], { cwd: work, env, stdio: 'inherit' })
const electronArgs = [`--runtime=electron`, `--target=${stamp.electron}`, `--arch=${process.arch}`]

try {
  // Prebuilt binaries are published for Electron releases; fall back to compiling against Electron's headers.
  run(require.resolve('prebuild-install/bin.js'), [...electronArgs, `--platform=${process.platform}`])
} catch {
  const nodeGyp =
    process.env['npm_config_node_gyp'] ??
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')
  try {
    run(nodeGyp, ['rebuild', '--release', ...electronArgs, '--dist-url=https://electronjs.org/headers', '--nodedir='])
  } catch {
    fail(
      `could not build better-sqlite3 for Electron ${stamp.electron}: no prebuilt binary could be fetched and compiling failed.\n` +
        "Compiling needs python3, make and a C++ compiler (Windows: Visual Studio Build Tools) and network access to Electron's headers."
    )
  }
}

copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target)
writeFileSync(stampFile, JSON.stringify(stamp))
rmSync(work, { recursive: true, force: true })
console.log(`ledgerline: SQLite for Electron ready at ${target}`)
