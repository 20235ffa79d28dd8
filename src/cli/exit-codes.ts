// The CLI's exit codes in one place, as the README gives them: 0 done (a reconciliation: accounted for with nothing left), 1 exceptions remain or the work failed, 2 bad input (an option, a file, a session or an item the caller named that cannot be used).
import { AppError } from '../main/errors'

/** Refusals of a given file as a whole: what it is, damaged or cut short, or without the statement asked for. */
export const UNREADABLE_FILE: ReadonlySet<string> = new Set([
  'not_a_statement',
  'malformed_workbook',
  'malformed_csv',
  'malformed_xml',
  'truncated_file',
  'no_statement',
  'malformed_pdf',
  'scanned_pdf',
  'pdf_no_table',
  'pdf_password_required',
  'pdf_password_wrong',
  'no_such_account',
  'empty_file',
  'file_too_large',
  'not_a_pack',
  'damaged_zip',
  'duplicate_entry',
  'unsupported_zip'
])

/** Refusals by a team workspace: the caller's to fix (a role, a state, a conflict, the server's address). */
export const TEAM_REFUSALS: ReadonlySet<string> = new Set([
  'team_role_refused',
  'team_state_refused',
  'team_duties_refused',
  'team_conflict',
  'team_schema_changed',
  'team_schema_too_new',
  'team_login_failed',
  'team_tls_failed',
  'team_no_database',
  'password_in_url',
  'bad_server_url',
  'bad_team_role',
  'team_read_only',
  'team_session',
  'team_not_synced',
  'team_replay_failed',
  'team_history_changed',
  'team_items_differ'
])

/** Everything else the caller gave that cannot be used: a period, a currency, a session, an item, a decision, a profile, a key, an address. */
export const BAD_REQUEST: ReadonlySet<string> = new Set([
  'invalid_period',
  'period_outside_statement',
  'currency_conflict',
  'invalid_settings',
  'invalid_time_zone',
  'invalid_source',
  'invalid_filter',
  'invalid_cursor',
  'invalid_amount',
  'invalid_currency',
  'invalid_match',
  'session_not_found',
  'session_closed',
  'session_open',
  'not_run',
  'file_not_found',
  'profile_mismatch',
  'item_not_found',
  'item_key_ambiguous',
  'not_a_suggestion',
  'not_matched',
  'not_a_line_not_read',
  'line_fixed',
  'nothing_to_undo',
  'reason_required',
  'reason_needed',
  'unknown_profile',
  'built_in_profile',
  'duplicate_name',
  'invalid_name',
  'invalid_base_url',
  'invalid_url',
  'invalid_key_format',
  'invalid_credentials',
  'no_key',
  'mode_mismatch',
  'different_merchant',
  'statement_not_kept'
])

/** The exit code of a failure: 2 when the caller's input is at fault, else 1. */
export function failureExitCode(error: unknown, usage: boolean): 1 | 2 {
  if (usage) return 2
  if (!(error instanceof AppError)) return 1
  return UNREADABLE_FILE.has(error.code) || TEAM_REFUSALS.has(error.code) || BAD_REQUEST.has(error.code) ? 2 : 1
}
