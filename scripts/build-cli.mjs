// Builds the CLI into one CommonJS bundle, out/cli/ledgerline.cjs, so `ledgerline` starts without compiling TypeScript: run by npm install (prepare) and before the tests.
import { createRequire } from 'node:module'

const { buildCliBundle } = createRequire(import.meta.url)('./cli-bundle.cjs')
try {
  buildCliBundle()
} catch (error) {
  // An install without the development tools: bin/ledgerline.cjs says what to do when it is run.
  if (error?.code === 'MODULE_NOT_FOUND') console.log('build-cli: esbuild is not installed; the ledgerline command is not built')
  else throw error
}
