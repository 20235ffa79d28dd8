// The error type services throw on purpose: its code (one of the domains' typed codes) and message reach the user; anything else becomes INTERNAL.
import { codeIs, type CallErrorCode, type ErrorCode } from '../shared/error-codes'

export class AppError extends Error {
  readonly code: CallErrorCode
  readonly details?: unknown

  constructor(code: CallErrorCode, message: string, details?: unknown) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.details = details
  }
}

/** The user said no in main's native confirmation: nothing changed. */
export function notConfirmed(what: string): AppError {
  return new AppError('not_confirmed', `${what} was not confirmed; nothing changed.`)
}

/** Whether something thrown is an AppError with one of these codes (typed: a misspelt code does not compile). */
export const isAppError = (error: unknown, ...codes: readonly ErrorCode[]): error is AppError =>
  error instanceof AppError && codeIs(error, ...codes)
