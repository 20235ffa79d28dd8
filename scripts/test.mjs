// npm test: runs vitest, on Linux inside a private D-Bus session with a throwaway unlocked keyring when one can be started.
// That keeps keychain tests off the developer's real login keyring and makes them work on headless machines and CI.
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const vitest = [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)]
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0

let result
if (process.platform === 'linux' && has('dbus-run-session') && has('gnome-keyring-daemon')) {
  result = spawnSync(join(root, 'scripts', 'with-keyring.sh'), [process.execPath, ...vitest], { stdio: 'inherit', cwd: root })
} else {
  if (process.platform === 'linux') {
    console.warn('ledgerline: dbus-run-session or gnome-keyring-daemon not found; keychain tests use the session keyring, if any.')
  }
  result = spawnSync(process.execPath, vitest, { stdio: 'inherit', cwd: root })
}
process.exit(result.status ?? 1)
