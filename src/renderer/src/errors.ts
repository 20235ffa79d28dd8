// How the renderer talks about a failed call: the user saying "no" in main's confirmation is not an error.
import type { CallError } from '../../shared/ipc/result'

/** main's native confirmation was declined: nothing changed, nothing to report as a failure. */
export const wasDeclined = (error: CallError | null): boolean => error?.code === 'not_confirmed'

export const describe = (error: CallError): string => `${error.message} (${error.code})`
