// Every code a call can fail with, one table per domain, each code with the kind of trouble it is: the host throws them typed, the CLI's exit code and the window's banner title follow from the kind.

/** The kinds of trouble: what the user is told first, and whether the caller's input is at fault (the CLI's exit 2). */
export const ERROR_KINDS = {
  key: { title: 'The key was not accepted', callersFault: true },
  address: { title: 'That address cannot be used', callersFault: true },
  unreadable_file: { title: 'This file cannot be read', callersFault: true },
  currency: { title: 'The currency does not match the file', callersFault: true },
  period: { title: 'The period does not fit the statement', callersFault: true },
  closed: { title: 'This session is closed', callersFault: true },
  locked: { title: 'Those days are locked', callersFault: true },
  not_found: { title: 'Not found', callersFault: true },
  team_refused: { title: 'The team workspace said no', callersFault: true },
  input: { title: 'Something needs correcting', callersFault: true },
  refused: { title: 'That cannot be done now', callersFault: true },
  keychain: { title: 'The system keychain cannot be used', callersFault: false },
  slow_down: { title: 'The provider asked to slow down', callersFault: false },
  unreachable: { title: 'The server could not be reached', callersFault: false },
  server: { title: 'Something went wrong on the other side', callersFault: false },
  cache: { title: 'The cache cannot be used', callersFault: false },
  write: { title: 'The file could not be written', callersFault: false },
  busy: { title: 'Other work is in the way', callersFault: false },
  /** The background service (the host process) was starting, restarting or gone when the call was made. */
  service: { title: 'The background service was not available', callersFault: false },
  /** The user said no in main's native confirmation: nothing changed, and nothing to report as a failure. */
  declined: { title: 'Nothing was changed', callersFault: false },
  other: { title: 'That did not work', callersFault: false }
} as const satisfies Record<string, { title: string; callersFault: boolean }>

export type ErrorKind = keyof typeof ERROR_KINDS

type CodeTable = Record<string, ErrorKind>

/** Codes more than one domain fails with, each in one meaning. */
export const COMMON_ERRORS = {
  internal: 'server',
  not_confirmed: 'declined',
  cancelled: 'other',
  /** An amount given (in a form, a filter, a decision) is not an amount. */
  invalid_amount: 'input',
  file_too_large: 'unreadable_file',
  job_running: 'busy',
  invalid_cursor: 'input',
  invalid_filter: 'input',
  invalid_time_zone: 'input',
  not_run: 'refused',
  /** A file, record or value that is not followed (or has no id to follow yet). */
  not_followed: 'refused',
  /** Something only the built-in Sandbox does. */
  not_sandbox: 'refused',
  test_mode_only: 'refused'
} as const satisfies CodeTable

export const BOUNDARY_ERRORS = {
  UNKNOWN_CALL: 'other',
  INVALID_ARGUMENT: 'input',
  FORBIDDEN_SENDER: 'other',
  INTERNAL: 'server',
  IPC_FAILED: 'other',
  HOST_UNAVAILABLE: 'service',
  HOST_STARTING: 'service',
  HOST_RESTARTED: 'service',
  /** The service host answered a call with something that is not a result. */
  HOST_BAD_ANSWER: 'server',
  host_start_failed: 'other'
} as const satisfies CodeTable

export const PROFILE_ERRORS = {
  invalid_name: 'input',
  duplicate_name: 'input',
  built_in_profile: 'refused',
  unknown_profile: 'not_found',
  invalid_base_url: 'address',
  invalid_url: 'address',
  invalid_credentials: 'key',
  invalid_key_format: 'key',
  mode_mismatch: 'key',
  different_merchant: 'key',
  no_key: 'key',
  no_builtin: 'other',
  no_funds_simulator: 'other',
  too_many_key_checks: 'slow_down',
  /** A team workspace's profile has no key and nothing to sync. */
  team_profile: 'refused'
} as const satisfies CodeTable

export const SECRET_ERRORS = {
  invalid_key: 'key',
  invalid_profile: 'input',
  keychain_unavailable: 'keychain'
} as const satisfies CodeTable

/** The API client's own codes; a code the provider sends is a ProviderErrorCode. */
export const API_ERRORS = {
  network_error: 'unreachable',
  timeout: 'unreachable',
  malformed_response: 'server',
  unexpected_response: 'server',
  redirect_refused: 'server',
  rate_limit_exceeded: 'slow_down',
  server_error: 'server'
} as const satisfies CodeTable

export const CACHE_ERRORS = {
  cache_busy: 'cache',
  cache_damaged: 'cache',
  cache_too_new: 'cache',
  cache_unavailable: 'cache',
  /** A file offered as a backup that is not one this Ledgerline restores (damaged, not a cache, newer). */
  backup_invalid: 'unreadable_file',
  /** A backup or a restore could not be written. */
  backup_failed: 'write'
} as const satisfies CodeTable

export const FILE_ERRORS = {
  damaged_zip: 'unreadable_file',
  duplicate_entry: 'unreadable_file',
  unsupported_zip: 'unreadable_file'
} as const satisfies CodeTable

export const JOB_ERRORS = {
  unknown_job: 'not_found'
} as const satisfies CodeTable

export const SYNC_ERRORS = {
  /** A list the provider said was complete came back short. */
  incomplete: 'server',
  paging_unreliable: 'server',
  /** One item failed to sync for a reason that is not the API's (its message says which). */
  sync_failed: 'other'
} as const satisfies CodeTable

export const RECORD_ERRORS = {
  record_not_found: 'not_found',
  account_expired: 'refused',
  invalid_state: 'refused',
  missing_parameter: 'input'
} as const satisfies CodeTable

export const BULK_ERRORS = {
  file_has_errors: 'input',
  invalid_file: 'unreadable_file',
  not_a_transfer_file: 'unreadable_file',
  not_open: 'refused',
  nothing_failed: 'refused',
  sent_file_not_found: 'not_found'
} as const satisfies CodeTable

export const EXPORT_ERRORS = {
  export_failed: 'write'
} as const satisfies CodeTable

export const RECON_ERRORS = {
  // A file refused as a whole: what it is, damaged or cut short, or without the statement asked for.
  not_a_statement: 'unreadable_file',
  malformed_csv: 'unreadable_file',
  malformed_pdf: 'unreadable_file',
  malformed_workbook: 'unreadable_file',
  malformed_xml: 'unreadable_file',
  truncated_file: 'unreadable_file',
  empty_file: 'unreadable_file',
  no_statement: 'unreadable_file',
  no_such_account: 'unreadable_file',
  scanned_pdf: 'unreadable_file',
  pdf_no_table: 'unreadable_file',
  pdf_password_required: 'unreadable_file',
  pdf_password_wrong: 'unreadable_file',
  not_a_pack: 'unreadable_file',
  currency_conflict: 'currency',
  /** A statement of another account than the one named, or than the session's. */
  account_conflict: 'input',
  invalid_period: 'period',
  period_outside_statement: 'period',
  invalid_currency: 'input',
  invalid_match: 'input',
  invalid_settings: 'input',
  invalid_source: 'input',
  item_key_ambiguous: 'input',
  reason_required: 'input',
  session_not_found: 'not_found',
  item_not_found: 'not_found',
  file_not_found: 'not_found',
  session_closed: 'closed',
  /** Days of an account's closed period: nothing dated in them is imported or decided until that period is reopened. */
  period_locked: 'locked',
  session_open: 'refused',
  line_fixed: 'refused',
  not_a_line_not_read: 'refused',
  not_a_suggestion: 'refused',
  not_matched: 'refused',
  nothing_to_undo: 'refused',
  profile_mismatch: 'refused',
  statement_not_kept: 'refused',
  /** The session is shared in a team workspace: it changes only through the workspace. */
  team_session: 'refused',
  /** A statement held for import is no longer open (choose the file again). */
  file_expired: 'other',
  session_changed: 'busy',
  statement_changed: 'cache',
  evidence_changed: 'write',
  evidence_not_bound: 'write',
  /** Closed by a Ledgerline that laid its reports out otherwise: this one cannot write the files the close bound. */
  evidence_layout_old: 'write'
} as const satisfies CodeTable

/** Team codes; the workspace's server refuses with the ones its functions name (TEAM_SERVER_REFUSALS). */
export const JOURNAL_ERRORS = {
  /** An account of the map that is not one, or a code or tax rate out of bounds. */
  invalid_account_map: 'input',
  /** A ledger's import refuses the file as it would be (more lines than it takes, a name where it needs a code). */
  journal_not_importable: 'input'
} as const satisfies CodeTable

/** Rules codes. */
export const RULE_ERRORS = {
  /** A rule file that is not a rule: each problem named by its path in the file. */
  invalid_rule: 'input',
  rule_not_found: 'not_found'
} as const satisfies CodeTable

export const TEAM_ERRORS = {
  bad_server_url: 'address',
  password_in_url: 'address',
  bad_team_role: 'input',
  reason_needed: 'input',
  team_unreachable: 'unreachable',
  team_server_error: 'server',
  team_conflict: 'team_refused',
  team_duties_refused: 'team_refused',
  team_history_changed: 'team_refused',
  team_items_differ: 'team_refused',
  team_login_failed: 'team_refused',
  team_no_database: 'team_refused',
  team_no_password: 'team_refused',
  team_no_workspace: 'team_refused',
  team_not_connected: 'team_refused',
  team_not_synced: 'team_refused',
  team_read_only: 'team_refused',
  team_replay_failed: 'team_refused',
  team_role_refused: 'team_refused',
  team_schema_changed: 'team_refused',
  team_schema_old: 'team_refused',
  team_schema_too_new: 'team_refused',
  team_state_refused: 'team_refused',
  team_tls_failed: 'team_refused',
  /** The session is not shared in a team workspace. */
  not_shared: 'refused',
  /** A conflict already let go. */
  conflict_gone: 'not_found'
} as const satisfies CodeTable

export type CommonErrorCode = keyof typeof COMMON_ERRORS
export type BoundaryCode = keyof typeof BOUNDARY_ERRORS
export type ProfileErrorCode = keyof typeof PROFILE_ERRORS
export type SecretErrorCode = keyof typeof SECRET_ERRORS
export type ApiErrorCode = keyof typeof API_ERRORS
export type CacheErrorCode = keyof typeof CACHE_ERRORS
export type FileErrorCode = keyof typeof FILE_ERRORS
export type JobErrorCode = keyof typeof JOB_ERRORS
export type SyncErrorCode = keyof typeof SYNC_ERRORS
export type RecordErrorCode = keyof typeof RECORD_ERRORS
export type BulkErrorCode = keyof typeof BULK_ERRORS
export type ExportErrorCode = keyof typeof EXPORT_ERRORS
export type ReconErrorCode = keyof typeof RECON_ERRORS
export type TeamErrorCode = keyof typeof TEAM_ERRORS
export type JournalErrorCode = keyof typeof JOURNAL_ERRORS
export type RuleErrorCode = keyof typeof RULE_ERRORS

/** Every code of ours. */
export type ErrorCode =
  | CommonErrorCode
  | BoundaryCode
  | ProfileErrorCode
  | SecretErrorCode
  | ApiErrorCode
  | CacheErrorCode
  | FileErrorCode
  | JobErrorCode
  | SyncErrorCode
  | RecordErrorCode
  | BulkErrorCode
  | ExportErrorCode
  | ReconErrorCode
  | JournalErrorCode
  | RuleErrorCode
  | TeamErrorCode

/** A code the payments provider sent, in its own words (said as it came, never one of ours): made only by providerCode. */
export type ProviderErrorCode = string & { readonly providerCode: true }

/** The code a failed call carries: one of ours, or the provider's own. */
export type CallErrorCode = ErrorCode | ProviderErrorCode

export const providerCode = (code: string): ProviderErrorCode => code as ProviderErrorCode

/** Each domain's table, by its name. */
export const ERROR_TABLES = {
  common: COMMON_ERRORS,
  boundary: BOUNDARY_ERRORS,
  profiles: PROFILE_ERRORS,
  secrets: SECRET_ERRORS,
  api: API_ERRORS,
  cache: CACHE_ERRORS,
  files: FILE_ERRORS,
  jobs: JOB_ERRORS,
  sync: SYNC_ERRORS,
  records: RECORD_ERRORS,
  bulk: BULK_ERRORS,
  export: EXPORT_ERRORS,
  reconcile: RECON_ERRORS,
  journal: JOURNAL_ERRORS,
  rules: RULE_ERRORS,
  team: TEAM_ERRORS
} as const

const KIND_OF: ReadonlyMap<string, ErrorKind> = new Map(Object.values(ERROR_TABLES).flatMap((table) => Object.entries(table)))

/** Whether a code is one of ours (a provider's own, or one a server made up, is not). */
export const isErrorCode = (code: string): code is ErrorCode => KIND_OF.has(code)

/** The kind of trouble a code is. A provider's own code: by what HTTP said, its key refused, else "other". */
export function errorKind(code: CallErrorCode | string, status?: number): ErrorKind {
  const kind = KIND_OF.get(code)
  if (kind) return kind
  if (status === 401 || status === 403) return 'key'
  if (status === 404) return 'not_found'
  if (status === 429) return 'slow_down'
  if (status !== undefined && status >= 500) return 'server'
  if (status !== undefined && status >= 400) return 'input'
  return 'other'
}

/** Whether a failure carries one of these codes: each checked against the tables, so a misspelt code does not compile. */
export const codeIs = (error: { readonly code: CallErrorCode } | null | undefined, ...codes: readonly ErrorCode[]): boolean =>
  error !== null && error !== undefined && (codes as readonly string[]).includes(error.code)

/** A failed call's title in words, by the kind of its code (a provider's own code by the HTTP status its details carry): never a raw code. */
export function errorTitle(error: { readonly code: CallErrorCode; readonly details?: unknown }): string {
  const details = error.details
  const status =
    details !== null && typeof details === 'object' && 'status' in details && typeof details.status === 'number'
      ? details.status
      : undefined
  return ERROR_KINDS[errorKind(error.code, status)].title
}
