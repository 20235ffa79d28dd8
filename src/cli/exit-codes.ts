// The CLI's exit codes in one place, as the README gives them: 0 done (a reconciliation: accounted for with nothing left), 1 exceptions remain or the work failed, 2 bad input (an option, a file, a session or an item the caller named that cannot be used).
import { ERROR_KINDS, errorKind } from '../shared/error-codes'
import { AppError } from '../main/errors'

/** The exit code of a failure: 2 when the caller's input is at fault (the kind of its code says), else 1. */
export function failureExitCode(error: unknown, usage: boolean): 1 | 2 {
  if (usage) return 2
  if (!(error instanceof AppError)) return 1
  return ERROR_KINDS[errorKind(error.code)].callersFault ? 2 : 1
}
