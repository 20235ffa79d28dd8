// Runs a command, on Linux inside a private D-Bus session with a throwaway unlocked keyring when one can be started
// (scripts/with-keyring.sh), so keychain work never touches the user's login keyring and works on headless machines and CI.
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0

/** Runs `args` (a command and its arguments) and returns its exit status. */
export function runInKeyring(args) {
  if (process.platform === 'linux' && has('dbus-run-session') && has('gnome-keyring-daemon')) {
    return spawnSync(join(root, 'scripts', 'with-keyring.sh'), args, { stdio: 'inherit', cwd: root }).status ?? 1
  }
  if (process.platform === 'linux') {
    console.warn('ledgerline: dbus-run-session or gnome-keyring-daemon not found; keychain work uses the session keyring, if any.')
  }
  const [command, ...rest] = args
  return spawnSync(command, rest, { stdio: 'inherit', cwd: root }).status ?? 1
}
