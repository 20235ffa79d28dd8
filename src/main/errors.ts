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
