// How the renderer talks about a failed call: titled by the kind of trouble its typed code is (src/shared/error-codes.ts); the user saying "no" in main's confirmation is not an error.
import { errorKind } from '../../shared/error-codes'
import type { CallError } from '../../shared/ipc/result'

export { errorTitle } from '../../shared/error-codes'

/** main's native confirmation was declined: nothing changed, nothing to report as a failure. */
export const wasDeclined = (error: CallError | null): boolean => error !== null && errorKind(error.code) === 'declined'

export const describe = (error: CallError): string => `${error.message} (${error.code})`
