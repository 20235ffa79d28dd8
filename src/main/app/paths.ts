// Where Ledgerline keeps its data outside Electron (the CLI): the same folder Electron's userData uses for the app.
import { homedir } from 'node:os'
import { join } from 'node:path'

export const APP_FOLDER = 'Ledgerline'

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir()
): string {
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), APP_FOLDER)
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER)
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), APP_FOLDER)
}

export const CACHE_FILE_NAME = 'cache.sqlite'
