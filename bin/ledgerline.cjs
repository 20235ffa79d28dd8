#!/usr/bin/env node
// The `ledgerline` command: loads the TypeScript CLI through tsx, so `npx ledgerline` needs no build step.
require('tsx/cjs/api').register()
const { main } = require('../src/cli/main.ts')

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
