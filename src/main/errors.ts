// The error type services throw on purpose: its code and message reach the user; anything else becomes INTERNAL.

export class AppError extends Error {
  readonly code: string
  readonly details?: unknown

  constructor(code: string, message: string, details?: unknown) {
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
