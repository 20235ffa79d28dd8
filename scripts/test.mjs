// npm test: runs vitest in a throwaway keyring session (see keyring-session.mjs), so keychain tests never touch a real keyring.
import { join } from 'node:path'
import { root, runInKeyring } from './keyring-session.mjs'

process.exit(runInKeyring([process.execPath, join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)]))
