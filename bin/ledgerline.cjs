#!/usr/bin/env node
// The `ledgerline` command: the CLI's one-file bundle (out/cli/ledgerline.cjs, built by npm install and before the tests), built again first when a source file is newer (a checkout changed since).
const { bundleIsFresh, buildCliBundle, bundle } = require('../scripts/cli-bundle.cjs')

if (!bundleIsFresh()) {
  try {
    buildCliBundle()
  } catch (error) {
    process.stderr.write(
      `ledgerline: the command could not be built (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); run npm install in ${require('node:path').join(__dirname, '..')}\n`
    )
    process.exit(2)
  }
}

require(bundle)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code
  })
