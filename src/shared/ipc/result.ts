// The one shape every IPC call returns, so a failure never crosses the boundary as a thrown error.
import type { CallErrorCode } from '../error-codes'

/** Machine-readable error codes the boundary itself can produce; services add their own. */
export const BoundaryErrorCode = {
  UnknownCall: 'UNKNOWN_CALL',
  InvalidArgument: 'INVALID_ARGUMENT',
  ForbiddenSender: 'FORBIDDEN_SENDER',
  Internal: 'INTERNAL'
} as const

export interface CallError {
  /** Stable machine code: one of the domains' typed codes (`src/shared/error-codes.ts`), or the provider's own. */
  code: CallErrorCode
  /** One human sentence saying what is wrong and where. */
  message: string
  /** Optional structured detail (field paths, row numbers); never a stack trace or a secret. */
  details?: unknown
}

export type CallResult<T> = { ok: true; value: T } | { ok: false; error: CallError }

export function ok<T>(value: T): CallResult<T> {
  return { ok: true, value }
}

export function fail(code: CallErrorCode, message: string, details?: unknown): CallResult<never> {
  return details === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, details } }
}
