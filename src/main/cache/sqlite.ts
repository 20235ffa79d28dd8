// Opens better-sqlite3 with the right native build: Node's by default, Electron's when main passes its path.
import Database from 'better-sqlite3'

export interface SqliteOptions {
  /**
   * Path to a better_sqlite3.node built for the running runtime. Electron passes the
   * Electron-ABI build made by scripts/electron-native.mjs; Node (tests, CLI) leaves it unset.
   */
  nativeBinding?: string
}

export function openDatabase(file: string, options: SqliteOptions & { readonly?: boolean } = {}): Database.Database {
  return new Database(file, {
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.readonly ? { readonly: true, fileMustExist: true } : {})
  })
}

export function sqliteVersion(options: SqliteOptions = {}): string {
  const db = openDatabase(':memory:', options)
  try {
    return (db.prepare('select sqlite_version() as v').get() as { v: string }).v
  } finally {
    db.close()
  }
}
