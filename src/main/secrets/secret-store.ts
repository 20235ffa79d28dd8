// API keys live only in the OS keychain (keytar): never in SQLite, logs, exports or the renderer, and never in plain text.
import { AppError } from '../errors'

/** The app id used as the keychain "service"; each profile id is an "account" under it. */
export const KEYCHAIN_SERVICE = 'app.ledgerline.desktop'

export interface SecretStore {
  get(profileId: string): Promise<string | null>
  set(profileId: string, secret: string): Promise<void>
  /** True when a secret was there to delete. */
  delete(profileId: string): Promise<boolean>
}

/** The slice of keytar this store uses, so a different keychain binding could stand in. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

export const KEYCHAIN_UNAVAILABLE = 'keychain_unavailable'

function remedy(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return 'Unlock the login keychain in Keychain Access and try again.'
    case 'win32':
      return 'Make sure Windows Credential Manager is available for your user account and try again.'
    default:
      return (
        'Ledgerline needs a Secret Service (GNOME Keyring or KWallet) running and unlocked in your session; ' +
        'on Debian or Ubuntu: sudo apt install gnome-keyring, then log out and in again.'
      )
  }
}

/** Any failure to reach the keychain becomes one clear error with the remedy: there is no plain-text fallback. */
export function keychainUnavailable(cause: unknown, platform: NodeJS.Platform = process.platform): AppError {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause)
  return new AppError(
    KEYCHAIN_UNAVAILABLE,
    `The system keychain could not be used (${reason}). ${remedy(platform)} Keys are never stored anywhere else.`
  )
}

function checkAccount(profileId: string): void {
  if (typeof profileId !== 'string' || profileId.trim() === '' || profileId.length > 200) {
    throw new AppError('invalid_profile', 'A profile id is needed to store or read its key.')
  }
}

export function createKeychainStore(keytar: KeytarLike, service: string = KEYCHAIN_SERVICE): SecretStore {
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      throw keychainUnavailable(error)
    }
  }
  return {
    async get(profileId) {
      checkAccount(profileId)
      return guarded(() => keytar.getPassword(service, profileId))
    },
    async set(profileId, secret) {
      checkAccount(profileId)
      if (typeof secret !== 'string' || secret.trim() === '') throw new AppError('invalid_key', 'The key is empty.')
      // Kept exactly as given: a key is checked for spaces before it gets here, and a password may hold them.
      return guarded(() => keytar.setPassword(service, profileId, secret))
    },
    async delete(profileId) {
      checkAccount(profileId)
      return guarded(() => keytar.deletePassword(service, profileId))
    }
  }
}

/** The real OS keychain. keytar is loaded on first use, so a machine without it fails with the clear error, not at start-up. */
export function createOsKeychainStore(service: string = KEYCHAIN_SERVICE): SecretStore {
  let loaded: KeytarLike | undefined
  const load = async (): Promise<KeytarLike> => {
    try {
      if (!loaded) {
        const module = (await import('keytar')) as unknown as KeytarLike & { default?: KeytarLike }
        loaded = module.default ?? module
      }
      return loaded
    } catch (error) {
      throw keychainUnavailable(error)
    }
  }
  const lazy: KeytarLike = {
    getPassword: async (s, a) => (await load()).getPassword(s, a),
    setPassword: async (s, a, p) => (await load()).setPassword(s, a, p),
    deletePassword: async (s, a) => (await load()).deletePassword(s, a)
  }
  return createKeychainStore(lazy, service)
}
