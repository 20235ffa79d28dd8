// The headless `ledgerline` CLI over the same services the app uses; every failure is one line and a non-zero exit.
import { join } from 'node:path'
import { defaultDataDir, CACHE_FILE_NAME } from '../main/app/paths'
import { AppError } from '../main/errors'
import { redactSecrets } from '../main/redact'
import { SEARCH_RESOURCES, SEARCH_SORTS } from '../shared/search'
import { SYNC_RESOURCES } from '../shared/sync'
import { UsageError } from './common'
import { failureExitCode } from './exit-codes'

const USAGE = `Usage: ledgerline <command> [options]

Commands:
  sandbox [--port N] [--seed N] [--payments N] [--no-rate-limits] [--strict-spec]
      Start the local Sandbox simulator of the payments API. Prints one JSON line
      with baseUrl, testKey, liveKey and controlToken (for its /__sandbox/* endpoints),
      then serves until stopped (Ctrl+C). --strict-spec answers with only what
      the API description shows (no extra fields, 400 for unknown ids).
  sandbox statement --out FILE [--format csv|xlsx|xls|pdf|mt940|camt053|ofx|qif] [--seed N] [--payments N] [--mode test|live] [--time-zone ZONE] [--json]
      Write a sample NGN bank statement for the Sandbox's own payments (the same --seed
      and --payments as the Sandbox), with differences on purpose: a missing payment, an
      amount off, a mobile-money settlement net of fees, a bank charge, a line posted
      twice, a payer who left the reference out. Days are in ZONE (default: this
      computer's, as a new profile's). Lists each difference and how to reconcile it.
  sandbox year --out FOLDER [--seed N] [--year YYYY] [--decide [--leave-last-open]] [--db FILE] [--json]
      A generated year for learning and rules: a keyless profile "Sandbox year YYYY (seed N)" with
      the year's payments in the cache, and twelve monthly NGN statements with their answers
      (answers.json) in FOLDER: customers who pay every month, named by the bank by a nickname or
      their business, shared amounts, the SMS charge and the transfer levy. --decide also
      reconciles each month, decides it as the answers say and closes it (for rules evaluate);
      --leave-last-open leaves December matched and open, for you to decide.
  profile add NAME --base-url URL      Check the key with the server and keep it in the OS keychain.
                                       The key is read from LEDGERLINE_API_KEY or asked for.
  profile list [--json]
  profile remove NAME                  Removes the profile, its cached records and its key (the
                                       cache is backed up first).
  backup [--out FILE] [--db FILE] [--json]
      Back up the cache online (the app may keep working) into its backups folder, a
      "backups" folder beside it, keeping the newest of each of the last 7 days and 4 weeks
      (and the newest 3); --out FILE: a copy where you say, kept as long as you keep it. Keys
      live in the system keychain, never in the cache, so never in a backup.
  backup list [--db FILE] [--json]
      The backups kept, newest first: when, why, size, and the profiles, sessions and records
      each holds.
  restore BACKUP [--db FILE] [--json]
      Restore a backup (a name from backup list, or a file): the file is checked first (sound,
      a Ledgerline cache, a schema this version reads); the cache as it is is kept aside as a
      backup first. Refused while the app has the cache open (use its Backups card).
  sync (--profile NAME | --base-url URL) [--resources LIST] [--track-bulk-file ID]...
       [--track-transfer REF]... [--track-plan ID]... [--no-pacing] [--json]
      Pull the provider's records into the cache. With --base-url the key comes from
      LEDGERLINE_API_KEY and is not stored. Progress goes to stderr.
  following [--profile NAME] [--json]  What sync follows, with when each last synced and its last error.
  unfollow [--profile NAME] (--bulk-file ID | --transfer REF | --plan ID)...
      Stop following items; what was fetched for them stays cached.
  search [--profile NAME] [--resource R] [filters] [--page-size N] [--after C | --before C] [--json] [QUERY...]
      Pages go by cursor: each answer prints the --after / --before for the next and previous page.
  export [--profile NAME] --resource R [filters] [--filter KEY=VALUE]... --out FILE [--plain] [QUERY...]
      Excel-safe CSV: UTF-8 with BOM, CRLF, exact amounts, identifiers kept as text.
      --plain: for accounting software, pandas and SQL (not Excel): UTF-8, every text
      value quoted as it is, nothing wrapped or prefixed.
  import [--profile NAME] [--mapping FILE] [--currency CUR] [--preview] [--save-preset NAME]
         [--same-file use-existing|import-again] [--same-rows keep|skip] [--account ID]
         [--password-file FILE] [--max-size MB] [--json] STATEMENT
      Read a bank statement, ledger or order export and store its rows. The format is
      known by the file's content: CSV/TSV in any common encoding and separator, Excel
      (.xlsx, old .xls: every sheet that holds a statement), text PDF (lines named by
      page and line), MT940/MT942, CAMT.052/053/054, OFX/QFX and QIF. A file of several
      accounts is imported as one statement each (--account ID: only that one). A
      password-protected PDF opens with the password on the first line of
      --password-file FILE (never on the command line; never stored or printed).
      Columns, number form and date order are found from the file; each bad row is
      reported with its line and column. --max-size MB: the most a file, or one part of a
      workbook once inflated, may hold (default 512; the cache's setting import.max_bytes).
  reconcile [--profile NAME] --source payments|payouts|subscriptions|virtual-accounts
            --against STATEMENT [--mapping FILE] [--currency CUR] [--from DATE --to DATE] [--time-zone ZONE]
            [--amount-tolerance X] [--days-before N --days-after N] [--net-of-fees]
            [--bulk-file ID]... [--transfer REF]... --out REPORT.csv [--summary FILE.csv]
            [--xlsx FILE.xlsx] [--pdf FILE.pdf] [--plain] [--account ID] [--password-file FILE] [--max-size MB] [--json]
      Import the statement, match it against the provider's records and write the
      reconciled report. Exit 0: accounted for, with nothing left to review (every line in
      an item or counted outside the period, the statement's balances tie, the difference
      left is 0); 1: anything left, or not proved; 2: bad input (a file it cannot read, a
      period that holds none of its lines, a currency the file contradicts). --currency only
      fills a currency the file leaves open.
  csv validate --kind transfers|plans [--profile NAME] [--remote] [--json] FILE
      Check a bulk transfer (payout) or bulk plan CSV before upload: every problem on
      its row (as a spreadsheet numbers it) and column, and totals per currency. With a
      profile, bank codes and plan references are checked against its cache; --remote
      also has the API validate a transfer file. Exit 0: no errors; 1: errors; 2: the
      file cannot be read.
  decide --session ID --item KEY (accept|reject|unmatch|resolve|unresolve|note TEXT|exclude REASON|fix DAY AMOUNT CUR)
         [--reason CODE] [--json]
      Decide about one item of a session (KEY: the report's item_key column, 12 characters); fix reads a
      line that could not be read by hand, exclude leaves it out with a reason. Each decision
      is kept in the audit trail.
  accept-all --session ID --min-score N [--no-groups] [--yes] [--json]
      Accept every undecided suggestion scoring N or more, and every group suggestion (one
      line the exact sum of several records: they have no score) unless --no-groups; prints
      how many and their total, and asks first unless --yes.
  match --session ID --item KEY --item KEY... [--json]
      Match by hand the records and lines of these items (one to one, one to many or many to
      one); the session is matched again around it.
  run --session ID [--json]
      Match an open session again as it stands: records synced since, statements added, rules
      enabled since (says what each rule decided). Every decision is kept.
  undo --session ID [--json]
      Take back the last decision not taken back yet (it stays in the audit trail).
  sessions [--profile NAME] [--json]
      Every session: id, name, profile, account, currencies, period, state (not run, open,
      closed, shared), counts, and what may be said of it.
  report --session ID [--out FILE] [--summary FILE] [--xlsx FILE] [--pdf FILE] [--plain] [--json]
      Write the reports of any session as it stands now (at least one): the items CSV, the
      summary CSV, the workbook (the reconciliation statement, summary and items, laid out for
      people), the bank reconciliation statement as a PDF to file. Exit codes as reconcile's.
  close --session ID [--evidence PACK.zip]
      Close a session: read-only until reopened. --evidence writes one zip an auditor opens
      without Ledgerline: the reports, every statement as imported, the audit trail with its
      hash chain, the settings, and a README on checking it by hand. On a session already closed,
      --evidence writes the pack of that close and changes nothing.
  reopen --session ID --reason TEXT    Open a closed session again; the reason is kept.
  journal --session ID --format xero|qbo|zoho|sage|csv --out FILE [--json]
      A closed session's journal for the ledger: the provider's fees on matched records, the
      bank's charges only in the file (VAT, levies and stamp duty apart) and the adjustments, as
      balanced entries in the ledger's import format; its figures tie to the summary's.
  journal map [--profile NAME] [--set ACCOUNT=CODE]... [--tax-rate NAME] [--json]
      The profile's account map: the ledger account each line posts to (fees, bank_charges, vat,
      levies, stamp_duty, adjustments, clearing, bank) and the tax rate Xero asks for.
  rules list [--profile NAME] [--json]
      The profile's rules, in the order they are tried: each in words, its version, enabled or not.
  rules add --file RULE.json [--profile NAME] [--json]
      Add a rule (JSON: name, description, match all|any, conditions, action; see the README), or
      save a changed one as its next version. A new rule is not enabled: try it first.
  rules evaluate [--profile NAME] [--json]
      Replay the closed sessions in order, each matched again before its own decisions, learning
      only from those before it: the suggestions' precision and recall with and without learning,
      and each enabled rule's, against what you confirmed.
  rules proposed [--profile NAME] [--json]
      Rules proposed from what you confirmed: a line's wording you paired with the same customer
      at least 3 times, 90% of the times you decided it, with at most 1 rejection; each with
      those figures. Nothing is applied until you add one (rules add --proposed NAME) and enable it.
  rules preview --session ID (--file RULE.json | NAME) [--json]
      What the rule would do in the session and the profile's last closed sessions: the items it
      would act on, how many as you decided them, how many otherwise, how many not decided yet.
  rules enable NAME | rules disable NAME | rules move NAME --to N | rules remove NAME [--profile NAME] [--json]
      Apply a rule from the next run on, or no longer; move it to place N in the order (1: tried
      first); remove it (what it decided stays, its versions are kept).
  rules list|add|preview|enable|disable|move|remove … --server URL [--db FILE]
      The team workspace's own rules, which decide its shared sessions (preparers and admins
      change them; preview takes --session SHARED-ID). A preparer's team sync applies the
      enabled ones, each a decision every member replays naming the rule and its version.
  audit verify [--session ID] [--json]
      Check every reconciliation decision's hash chain; exit 1 when anything was changed.
  audit verify --evidence PACK.zip [--head HASH] [--json]
      Check an evidence pack offline: every file's SHA-256, each statement against the one
      recorded at import, and the audit trail's chain; exit 1 naming each file or event that
      does not match. --head HASH: the chain head kept with the sign-off, checked too.
  team setup --server URL [--json]   (every team command also takes --db FILE: your cache and outbox)
      Create (or upgrade) a team workspace's schema on a PostgreSQL 14+ server; run by the
      workspace owner, a login that may create schemas in that database. URL:
      postgres://LOGIN@HOST:5432/DATABASE (add ?sslmode=… only to lower the TLS check, which is
      verify-full for any server not on this computer). The password comes from PGPASSWORD or
      ~/.pgpass, never the URL.
  team member add|remove|list --server URL [LOGIN] [--role preparer|reviewer|admin] [--json]
      Give an existing PostgreSQL login a workspace role, take it away, or list the members
      (owner or admins only). A refusal by the server exits 2 and says why.
  team share --server URL --session ID [--db FILE]
      Publish a local session to the workspace: its statements exactly as imported (SHA-256
      checked by the server), the provider records it reads and the decisions made so far; you
      become its preparer.
  team sessions --server URL [--json]
      The shared sessions: id, name, period, state, preparer, reviewer, counts, who has each open.
  team sync --server URL [--db FILE] [--session ID] [--watch]
      Send the decisions waiting in this computer's outbox, then open (download and replay, no
      API key needed) or bring up to date every shared session. A refused decision becomes a
      conflict on its item. --watch keeps listening and syncs at every change until Ctrl+C.
  team submit|approve --server URL --session ID
  team return|reopen --server URL --session ID --reason TEXT
      Move a shared session on: a preparer submits; a reviewer or admin who neither prepared it
      nor decided in it approves, or returns it with a comment; an admin reopens an approved one.
  team report --server URL --session ID --out FILE.csv [--xlsx FILE] [--db FILE]
      The items as replayed here, and FILE-sign-off.csv: who shared, submitted, returned,
      approved and reopened it when, with the comments (a superseded approval marked so).
  decide --server URL --session ID --item KEY accept|reject|unmatch|resolve|unresolve|note TEXT [--based-on N] [--db FILE]
      A decision on a shared session (preparers; a note is a comment, all a reviewer adds),
      queued in the outbox and sent at once, or by the next team sync when the server cannot be
      reached. Refused as a conflict, naming who changed the item and when, if it changed since
      the version this computer has (or N).
  undo --server URL --session ID [--db FILE]
      Take back the shared session's last decision through the workspace (preparers), sent as a
      decision is; one made before the session was shared cannot be taken back so.
  audit verify --server URL --session ID [--json]
      Recompute a shared session's hash chain from the server's rows; exit 1 naming the first
      event that does not fit.
  help

Common options: --db FILE (default: ${join(defaultDataDir(), CACHE_FILE_NAME)})
Dates: what the CLI says, and the PDF and workbook it writes for people, write days and times as
  LEDGERLINE_LOCALE says (en-NG and en-GH: 31/10/2026; en-US: 10/31/2026; iso: 2026-10-31), else as
  LC_ALL, LC_TIME or LANG say (en_NG.UTF-8), else as ISO. CSV files and --json keep ISO days.
Filters: --status S --channel C --currency CUR --min AMOUNT --max AMOUNT --from DATE --to DATE --sort ${SEARCH_SORTS.join('|')}
Resources: ${SEARCH_RESOURCES.join(', ')} (search/export); ${SYNC_RESOURCES.join(', ')} (sync)

Example:
  npx ledgerline sandbox --port 8080
`

type Command = (args: string[]) => Promise<number>

/**
 * Each command by its name, loaded when it is run: a command's module (and the libraries it needs,
 * spreadsheets, PDF, PostgreSQL) is read only for that command, so `help` and a `decide` start at once.
 * A name with `--server` among its arguments is the team workspace's command of that name.
 */
const COMMANDS: Record<string, (args: string[]) => Promise<Command>> = {
  sandbox: async () => (await import('./commands/sandbox')).sandboxCommand,
  profile: async () => (await import('./commands/profile')).profileCommand,
  sync: async () => (await import('./commands/sync')).syncCommand,
  following: async () => (await import('./commands/sync')).followingCommand,
  unfollow: async () => (await import('./commands/sync')).unfollowCommand,
  search: async () => (await import('./commands/search')).searchCommand,
  export: async () => (await import('./commands/search')).exportCommand,
  import: async () => (await import('./commands/reconcile')).importCommand,
  reconcile: async () => (await import('./commands/reconcile')).reconcileCommand,
  report: async () => (await import('./commands/reconcile')).reportCommand,
  audit: async (args) =>
    args.includes('--server') ? (await import('./commands/team')).teamAuditCommand : (await import('./commands/reconcile')).auditCommand,
  decide: async (args) =>
    args.includes('--server') ? (await import('./commands/team')).teamDecideCommand : (await import('./commands/session')).decideCommand,
  undo: async (args) =>
    args.includes('--server') ? (await import('./commands/team')).teamUndoCommand : (await import('./commands/session')).undoCommand,
  'accept-all': async () => (await import('./commands/session')).acceptAllCommand,
  sessions: async () => (await import('./commands/session')).sessionsCommand,
  run: async () => (await import('./commands/session')).runCommand,
  match: async () => (await import('./commands/session')).matchCommand,
  close: async () => (await import('./commands/session')).closeCommand,
  reopen: async () => (await import('./commands/session')).reopenCommand,
  journal: async () => (await import('./commands/journal')).journalCommand,
  rules: async () => (await import('./commands/rules')).rulesCommand,
  csv: async () => (await import('./commands/csv')).csvCommand,
  team: async () => (await import('./commands/team')).teamCommand,
  backup: async () => (await import('./commands/backup')).backupCommand,
  restore: async () => (await import('./commands/backup')).restoreCommand
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  try {
    const load = command === undefined || !Object.hasOwn(COMMANDS, command) ? undefined : COMMANDS[command]
    if (load) return await (await load(rest))(rest)
    switch (command) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE)
        return command === undefined ? 2 : 0
      default:
        throw new UsageError(`unknown command "${command}" (try: ledgerline help)`)
    }
  } catch (error) {
    const usage =
      error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    const message = error instanceof Error ? error.message : String(error)
    const code = error instanceof AppError ? ` [${error.code}]` : ''
    process.stderr.write(`ledgerline: ${redactSecrets(message.split('\n')[0] ?? '')}${code}\n`)
    // A file it cannot read, a refusal by the team workspace, a session or item that is not there: the caller's to fix, as a bad option is.
    return failureExitCode(error, usage)
  }
}
