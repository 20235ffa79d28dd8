// The profile domain of the IPC contract: list, choose, add, re-key and remove profiles; keys go in, never out.
import { z } from 'zod'
import { call, id, noArgs, text } from './define'

/** A profile as the renderer may see it: never its key. */
export interface ProfileSummary {
  id: string
  name: string
  /** null for the built-in Sandbox, which runs inside the app. */
  baseUrl: string | null
  mode: 'test' | 'live'
  builtIn: boolean
  createdAt: string
  lastSyncedAt: string | null
  /** The business time zone (IANA name): date filters, period boundaries, displays and exports use it. */
  timeZone: string
  /** True when the profile names no zone of its own and follows the computer's. */
  timeZoneIsSystem: boolean
  /** The provider's test-mode funds simulator (its base URL), when set; the built-in Sandbox has its own. */
  fundsSimulatorUrl: string | null
  /** Set on a profile that holds the sessions replayed from a team workspace (HOST:PORT/DATABASE): no API key, nothing to sync. */
  workspace: string | null
}

/** A secret key as typed: bounded here; its characters are checked in the host (no whitespace or control characters). */
const key = z.string().min(1).max(512)

export const profileCalls = {
  'profile:list': call<ProfileSummary[]>()(noArgs),
  'profile:active': call<ProfileSummary>()(noArgs),
  /** Switching to a live profile is confirmed in a native dialog first. */
  'profile:select': call<ProfileSummary>()(z.strictObject({ id })),
  /** The key travels renderer → main → host once, is checked with the server and goes into the keychain; it never comes back. */
  'profile:add': call<ProfileSummary>()(z.strictObject({ name: z.string().min(1).max(80), baseUrl: z.string().min(1).max(500), key })),
  /** Confirmed in a native dialog that shows the new key sees this profile's data. */
  'profile:replaceKey': call<ProfileSummary>()(z.strictObject({ id, key })),
  /** Confirmed in a native dialog; the profile disappears at once and its cached records are deleted by a job. */
  'profile:remove': call<{ removed: string; jobId: string }>()(z.strictObject({ id })),
  /** Sets the profile's business time zone (an IANA name such as Africa/Lagos), or null to follow the computer's. */
  'profile:setTimeZone': call<ProfileSummary>()(z.strictObject({ id, timeZone: z.string().min(1).max(64).nullable() })),
  /** Sets the address of the provider's test-mode funds simulator, or null for none. */
  'profile:setFundsSimulator': call<ProfileSummary>()(z.strictObject({ id, url: z.string().max(500).nullable() }))
} as const

export const profileEvents = {
  /**
   * The profile in use changed (another was chosen, it was removed and the Sandbox took over) or its
   * settings did: every profile-scoped screen forgets what it holds and reads again.
   */
  'profile:changed': z.strictObject({ profileId: text(200), reason: z.enum(['selected', 'removed', 'updated']) })
} as const
