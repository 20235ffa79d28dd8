// npm run bench: the benchmarks, in a throwaway keyring session like the tests (removing a profile touches the keychain).
import { join } from 'node:path'
import { root, runInKeyring } from './keyring-session.mjs'

process.exit(runInKeyring([process.execPath, '--import', 'tsx', join(root, 'bench', 'run.ts'), ...process.argv.slice(2)]))
