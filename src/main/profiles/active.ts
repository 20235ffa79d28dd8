// The profile in use: remembered in the cache's settings so the app reopens on it; the Sandbox when it is gone.
import type Database from 'better-sqlite3'
import type { Profile, ProfileService } from './service'
import { SANDBOX_PROFILE } from './builtin'

export class ActiveProfile {
  private id: string

  constructor(
    private readonly db: Database.Database,
    private readonly profiles: ProfileService
  ) {
    const saved = db.prepare("select value from settings where key = 'active_profile'").get() as { value: string } | undefined
    this.id = saved?.value ?? SANDBOX_PROFILE.id
  }

  /** The profile in use, falling back to the built-in Sandbox when the remembered one was removed. */
  current(): Profile {
    try {
      return this.profiles.get(this.id)
    } catch {
      this.set(SANDBOX_PROFILE.id)
      return this.profiles.get(this.id)
    }
  }

  set(id: string): void {
    this.id = id
    this.db
      .prepare("insert into settings (key, value) values ('active_profile', ?) on conflict (key) do update set value = excluded.value")
      .run(id)
  }
}
