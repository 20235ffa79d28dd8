// How the renderer talks about a failed call: the user saying "no" in main's confirmation is not an error.
import type { CallError } from '../../shared/ipc/result'

/** main's native confirmation was declined: nothing changed, nothing to report as a failure. */
export const wasDeclined = (error: CallError | null): boolean => error?.code === 'not_confirmed'

export const describe = (error: CallError): string => `${error.message} (${error.code})`

/** Banner titles by what went wrong, in words: a banner never shows a raw code as its title (the code stays in its text, for support). */
const TITLES: [RegExp, string][] = [
  [/^keychain/, 'The system keychain cannot be used'],
  [/^(invalid_credentials|invalid_key_format|no_key|mode_mismatch|different_merchant)$/, 'The key was not accepted'],
  [/^(invalid_base_url|invalid_url|bad_server_url|password_in_url)$/, 'That address cannot be used'],
  [/^rate_limit/, 'The provider asked to slow down'],
  [/^(network|timeout|team_unreachable|unreachable)/, 'The server could not be reached'],
  [/^(server_error|internal)$/, 'Something went wrong on the other side'],
  [
    /^(not_a_statement|malformed_|damaged_zip|duplicate_entry|unsupported_zip|truncated_file|no_statement|empty_file|file_too_large|scanned_pdf|pdf_|not_a_pack)/,
    'This file cannot be read'
  ],
  [/^currency_conflict$/, 'The currency does not match the file'],
  [/^(period_outside_statement|invalid_period)$/, 'The period does not fit the statement'],
  [/^session_closed$/, 'This session is closed'],
  [/^(session_not_found|item_not_found|file_not_found|not_found|unknown_profile)$/, 'Not found'],
  [/^team_/, 'The team workspace said no'],
  [/^cache_/, 'The cache cannot be used'],
  [/^(invalid_|reason_required|reason_needed)/, 'Something needs correcting'],
  [/^(export_failed|evidence_)/, 'The file could not be written']
]

/** A failed call's banner title, in words. */
export function errorTitle(error: CallError): string {
  return TITLES.find(([pattern]) => pattern.test(error.code))?.[1] ?? 'That did not work'
}
