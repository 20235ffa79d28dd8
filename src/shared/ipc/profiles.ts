// The profile domain of the IPC contract: list, choose, add, re-key and remove profiles; keys go in, never out.
import { z } from 'zod'
import { call, id, noArgs } from './define'

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
  'profile:setTimeZone': call<ProfileSummary>()(z.strictObject({ id, timeZone: z.string().min(1).max(64).nullable() }))
} as const
