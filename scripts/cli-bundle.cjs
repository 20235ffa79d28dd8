// The CLI's one-file bundle, out/cli/ledgerline.cjs, built with esbuild as the app's build bundles the host: shared by scripts/build-cli.mjs (npm install, the tests) and bin/ledgerline.cjs (a checkout changed since).
const { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..')
const bundle = join(root, 'out', 'cli', 'ledgerline.cjs')

/** The newest modification time of the sources the bundle is built from (all of src but the renderer and preload: a few ms). */
function newestSource(dir = join(root, 'src')) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'renderer' && entry.name !== 'preload') newest = Math.max(newest, newestSource(path))
    } else newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** Whether the bundle is there and newer than every source it is built from. */
function bundleIsFresh() {
  return existsSync(bundle) && statSync(bundle).mtimeMs >= newestSource()
}

/**
 * Builds the bundle (esbuild from the development dependencies), written to a file of its own and
 * renamed into place: a command starting meanwhile reads the old bundle or the new one, never half.
 */
function buildCliBundle() {
  const esbuild = require('esbuild')
  const result = esbuild.buildSync({
    entryPoints: [join(root, 'src', 'cli', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Packages load from node_modules as they are (native addons among them), not copied in.
    packages: 'external',
    outfile: bundle,
    write: false,
    logLevel: 'warning'
  })
  mkdirSync(join(root, 'out', 'cli'), { recursive: true })
  const part = `${bundle}.${process.pid}.part`
  writeFileSync(part, result.outputFiles[0].contents)
  renameSync(part, bundle)
}

module.exports = { bundle, bundleIsFresh, buildCliBundle }
