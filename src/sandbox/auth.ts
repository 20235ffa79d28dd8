// The Sandbox's keys: a test and a live secret key, which one a request's bearer token is, and the two 401 bodies the provider sends.
import { randomBytes } from 'node:crypto'
import { KEY_PREFIXES } from '../shared/api/assumptions'
import type { SandboxMode } from './data'
import { json, type HttpReply } from './http'

/** The provider's two 401 bodies: A `{ error, message, status }`, B `{ code, message, statusCode, requestMarker }` (endpoints differ). */
export type UnauthorizedShape = 'A' | 'B'

export function newKey(mode: SandboxMode): string {
  return `${KEY_PREFIXES[mode]}${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`
}

/** The mode whose key the Authorization header carries, or null. */
export function modeForAuth(keys: Record<SandboxMode, string>, header: string | undefined): SandboxMode | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '')
  if (!match) return null
  if (match[1] === keys.test) return 'test'
  if (match[1] === keys.live) return 'live'
  return null
}

export function unauthorized(shape: UnauthorizedShape, hadHeader: boolean): HttpReply {
  if (shape === 'B') {
    return json(401, {
      message: hadHeader ? 'Authorization token is invalid.' : 'Authorization token is required.',
      statusCode: 401,
      code: 'AUTH_ERROR',
      requestMarker: crypto.randomUUID()
    })
  }
  return json(401, { error: 'Unauthorized', message: 'invalid_credentials', status: 401 })
}
