// The headless `ledgerline` CLI over the same services the app uses; every failure is one line and a non-zero exit.
import { writeSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultDataDir, CACHE_FILE_NAME } from '../main/app/paths'
import { CacheStore } from '../main/cache/store'
import { AppError } from '../main/errors'
import { describeSync } from '../main/log'
import { exportCsv } from '../main/export/export'
import { writeFileSafely } from '../main/export/safe-file'
import { ClientPool } from '../main/profiles/clients'
import { completeRemoval } from '../main/profiles/removal'
import { RECON_PROFILE_TABLES } from '../main/reconcile/sessions'
import type { Profile } from '../main/profiles/service'
import { redactSecrets } from '../main/redact'
import { sandboxSeed } from '../main/sandbox/seed'
import { startSandbox } from '../main/sandbox/server'
import { sampleStatement } from '../main/sandbox/statement'
import { sampleStatementFile } from '../main/sandbox/statement-formats'
import { lineWhere, SAMPLE_FORMATS, type SampleFormat } from '../shared/reconcile'
import { search } from '../main/search/search'
import { runSync } from '../main/sync/engine'
import { toMajorString } from '../shared/money'
import { formatInZone, systemTimeZone } from '../shared/time'
import { FOLLOW_KIND_NAMES } from '../shared/ipc/sync'
import { SEARCH_RESOURCES, SEARCH_SORTS, type SearchQuery, type SearchResource, type SearchSort } from '../shared/search'
import { SYNC_RESOURCES, type SyncProgress, type SyncResource } from '../shared/sync'
import {
  apiKeyFromEnv,
  chooseProfile,
  cliSecrets,
  COMMON,
  FILTER_OPTIONS,
  openData,
  outputPath,
  PLAIN_NOTE,
  positiveInt,
  UsageError
} from './common'
import { readSecret } from './prompt'
import { csvCommand } from './csv'
import { auditCommand, importCommand, reconcileCommand, reportCommand } from './reconcile'
import { acceptAllCommand, closeCommand, decideCommand, matchCommand, reopenCommand, sessionsCommand, undoCommand } from './session'
import { teamAuditCommand, teamCommand, teamDecideCommand } from './team'
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
  profile add NAME --base-url URL      Check the key with the server and keep it in the OS keychain.
                                       The key is read from LEDGERLINE_API_KEY or asked for.
  profile list [--json]
  profile remove NAME                  Removes the profile, its cached records and its key.
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
            [--xlsx FILE.xlsx] [--plain] [--account ID] [--password-file FILE] [--max-size MB] [--json]
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
  undo --session ID [--json]
      Take back the last decision not taken back yet (it stays in the audit trail).
  sessions [--profile NAME] [--json]
      Every session: id, name, profile, account, currencies, period, state (not run, open,
      closed, shared), counts, and what may be said of it.
  report --session ID --out FILE [--summary FILE] [--xlsx FILE] [--plain] [--json]
      Write the reports of any session as it stands now. Exit codes as reconcile's.
  close --session ID [--evidence PACK.zip]
      Close a session: read-only until reopened. --evidence writes one zip an auditor opens
      without Ledgerline: the reports, every statement as imported, the audit trail with its
      hash chain, the settings, and a README on checking it by hand. On a session already closed,
      --evidence writes the pack of that close and changes nothing.
  reopen --session ID --reason TEXT    Open a closed session again; the reason is kept.
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
  audit verify --server URL --session ID [--json]
      Recompute a shared session's hash chain from the server's rows; exit 1 naming the first
      event that does not fit.
  help

Common options: --db FILE (default: ${join(defaultDataDir(), CACHE_FILE_NAME)})
Filters: --status S --channel C --currency CUR --min AMOUNT --max AMOUNT --from DATE --to DATE --sort ${SEARCH_SORTS.join('|')}
Resources: ${SEARCH_RESOURCES.join(', ')} (search/export); ${SYNC_RESOURCES.join(', ')} (sync)

Example:
  npx ledgerline sandbox --port 8080
`

function queryFrom(values: Record<string, unknown>, resource: string | undefined, text: string[]): SearchQuery {
  const chosen = (resource ?? 'payments') as SearchResource
  if (!SEARCH_RESOURCES.includes(chosen))
    throw new UsageError(`--resource must be one of ${SEARCH_RESOURCES.join(', ')} (got "${resource}")`)
  const filters: Record<string, string> = {}
  for (const pair of (values['filter'] as string[] | undefined) ?? []) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new UsageError(`--filter needs KEY=VALUE (got "${pair}")`)
    filters[pair.slice(0, at).trim()] = pair.slice(at + 1).trim()
  }
  const pick = (name: string): string | undefined => (values[name] as string | undefined) ?? filters[name]
  const known = new Set(['status', 'channel', 'currency', 'min', 'max', 'from', 'to', 'sort', 'text'])
  for (const name of Object.keys(filters))
    if (!known.has(name)) throw new UsageError(`unknown filter "${name}" (use ${[...known].join(', ')})`)
  const sort = pick('sort')
  if (sort !== undefined && !(SEARCH_SORTS as readonly string[]).includes(sort))
    throw new UsageError(`--sort must be one of ${SEARCH_SORTS.join(', ')}`)
  const words = [...text, ...(filters['text'] ? [filters['text']] : [])].join(' ')
  const query: SearchQuery = { resource: chosen }
  if (words.trim()) query.text = words
  for (const [key, name] of [
    ['status', 'status'],
    ['channel', 'channel'],
    ['currency', 'currency'],
    ['minAmount', 'min'],
    ['maxAmount', 'max'],
    ['from', 'from'],
    ['to', 'to']
  ] as const) {
    const value = pick(name)
    if (value !== undefined) query[key] = value
  }
  if (sort) query.sort = sort as SearchSort
  return query
}

async function profileCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    options: { db: COMMON.db, json: COMMON.json, 'base-url': COMMON['base-url'] },
    allowPositionals: true,
    strict: true
  })
  const data = openData(values.db, action === 'add' ? 'fills' : 'reads')
  try {
    switch (action) {
      case 'add': {
        const name = positionals.join(' ').trim()
        if (!name) throw new UsageError('profile add needs a NAME')
        if (!values['base-url']) throw new UsageError('profile add needs --base-url URL (it ends in /v1)')
        const key = apiKeyFromEnv() ?? (await readSecret(`API secret key for "${name}": `))
        const profile = await data.profiles.add({ name, baseUrl: values['base-url'], key })
        data.log.info(`cli: added profile "${profile.name}" (${profile.mode}, ${profile.baseUrl})`)
        process.stdout.write(
          values.json
            ? `${JSON.stringify(profile)}\n`
            : `Added "${profile.name}" (${profile.mode.toUpperCase()}, ${profile.baseUrl}); its key is in the system keychain.\n`
        )
        return 0
      }
      case 'list': {
        const list = data.profiles.list()
        if (values.json) process.stdout.write(`${JSON.stringify(list)}\n`)
        else
          for (const p of list)
            process.stdout.write(
              `${p.name.padEnd(28)} ${p.mode.toUpperCase().padEnd(5)} ${p.baseUrl ?? '(built-in Sandbox)'}  last sync: ${p.lastSyncedAt ?? 'never'}\n`
            )
        return 0
      }
      case 'remove': {
        const name = positionals.join(' ').trim()
        if (!name) throw new UsageError('profile remove needs a NAME')
        const removed = await data.profiles.beginRemoval(name)
        await completeRemoval(data.profiles, data.db, removed.id, { domainTables: RECON_PROFILE_TABLES })
        data.log.info(`cli: removed profile "${removed.name}" with its cached records and key`)
        process.stdout.write(`Removed "${removed.name}", its cached records and its key.\n`)
        return 0
      }
      default:
        throw new UsageError(`profile needs add, list or remove (got "${action ?? ''}")`)
    }
  } finally {
    await data.close()
  }
}

function describeProgress(p: SyncProgress): string {
  const total = p.total === null ? '' : ` / ${p.total.toLocaleString('en-US')}`
  const eta = p.etaSeconds === null ? '' : `, ETA ${Math.ceil(p.etaSeconds)} s`
  return `${p.resource} (${p.phase}): ${p.done.toLocaleString('en-US')}${total} (${Math.round(p.rate).toLocaleString('en-US')}/s${eta})`
}

async function syncCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...COMMON,
      resources: { type: 'string' },
      'track-bulk-file': { type: 'string', multiple: true },
      'track-transfer': { type: 'string', multiple: true },
      'track-plan': { type: 'string', multiple: true },
      'no-pacing': { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  if (!values.profile && !values['base-url']) throw new UsageError('sync needs --profile NAME or --base-url URL')
  const resources = values.resources ? values.resources.split(',').map((r) => r.trim()) : [...SYNC_RESOURCES]
  for (const r of resources)
    if (!(SYNC_RESOURCES as readonly string[]).includes(r))
      throw new UsageError(`unknown resource "${r}" (use ${SYNC_RESOURCES.join(', ')})`)
  const data = openData(values.db, 'fills')
  // --no-pacing: for servers without rate limits, such as a local Sandbox started with --no-rate-limits.
  const clients = new ClientPool({ secrets: cliSecrets(), ...(values['no-pacing'] ? { pacing: false as const } : {}) })
  const controller = new AbortController()
  const onSignal = (): void => controller.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    let profile: Profile
    let key: string | undefined
    /** A profile made by --base-url for this run alone (none was there before): removed again when the key is refused. */
    let madeForThisRun = false
    if (values.profile) profile = data.profiles.get(values.profile)
    else {
      key = apiKeyFromEnv()
      if (!key) throw new UsageError('with --base-url, put the key in LEDGERLINE_API_KEY')
      const before = new Set(data.profiles.list().map((p) => p.id))
      profile = data.profiles.adHoc(values['base-url'] as string, key)
      madeForThisRun = !before.has(profile.id)
    }
    const store = new CacheStore(data.db)
    for (const id of values['track-bulk-file'] ?? []) store.track(profile.id, 'bulk_file', id)
    for (const ref of values['track-transfer'] ?? []) store.track(profile.id, 'transfer', ref)
    for (const id of values['track-plan'] ?? []) store.track(profile.id, 'plan', id)
    const client = await clients.for(profile, key)
    let lastLine = 0
    const summary = await runSync({
      client,
      store,
      profileId: profile.id,
      timeZone: profile.timeZone,
      resources: resources as SyncResource[],
      signal: controller.signal,
      onProgress: (p) => {
        const now = Date.now()
        if (now - lastLine < 1000 && p.phase !== 'done') return
        // A resource that ended with nothing written has nothing to report (the summary lists it).
        if (p.phase === 'done' && p.done === 0) return
        lastLine = now
        process.stderr.write(`${describeProgress(p)}\n`)
      }
    })
    if (summary.keyRefused) {
      const refused = summary.keyRefused
      data.log.error(`cli: sync of "${profile.name}": the key was refused: ${refused.code}`)
      if (madeForThisRun) {
        await data.profiles.beginRemoval(profile.id)
        await completeRemoval(data.profiles, data.db, profile.id, { domainTables: RECON_PROFILE_TABLES })
      }
      process.stderr.write(
        `ledgerline: the server refused the key of ${values.profile ? `profile "${profile.name}"` : `${profile.baseUrl} (from LEDGERLINE_API_KEY)`} (${refused.code}); nothing was synced after that. Check the key${values.profile ? ` (ledgerline profile add to store a new one)` : ''}.\n`
      )
      return 2
    }
    data.log.info(`cli: ${describeSync(profile.name, summary)}`)
    for (const [resource, outcome] of Object.entries(summary.resources))
      if (outcome.error) data.log.error(`cli: sync ${resource}: ${outcome.error.code}: ${outcome.error.message}`)
    if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`)
    else {
      process.stdout.write(`Synced "${profile.name}" (${profile.mode.toUpperCase()}) in ${(summary.durationMs / 1000).toFixed(1)} s\n`)
      for (const [resource, outcome] of Object.entries(summary.resources)) {
        const count = `${store.count(profile.id, resource as never).toLocaleString('en-US')} cached`
        const cost = `${outcome.requests.toLocaleString('en-US')} request${outcome.requests === 1 ? '' : 's'}${outcome.skipped ? `, ${outcome.skipped.toLocaleString('en-US')} skipped` : ''}`
        const failedWhole = outcome.error && !outcome.failedItems ? ` — ${outcome.error.code}: ${outcome.error.message}` : ''
        process.stdout.write(
          `  ${resource.padEnd(17)} ${outcome.ok ? 'ok    ' : 'FAILED'} ${outcome.written.toLocaleString('en-US')} fetched, ${count}, ${cost}${failedWhole}\n`
        )
        for (const item of outcome.failedItems ?? []) process.stdout.write(`      ${item.code}: ${item.message}\n`)
      }
    }
    const failed = Object.entries(summary.resources).filter(([, o]) => !o.ok)
    if (summary.cancelled) {
      process.stderr.write('ledgerline: sync cancelled; everything fetched so far is saved and the next sync resumes there\n')
      return 130
    }
    if (failed.length > 0) {
      const [resource, outcome] = failed[0] as [string, { error?: { code: string; message: string } }]
      process.stderr.write(
        `ledgerline: ${failed.length} resource(s) failed; first: ${resource}: ${outcome.error?.code}: ${outcome.error?.message}\n`
      )
      return 1
    }
    return 0
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await clients.close()
    await data.close()
  }
}

async function followingCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...COMMON }, strict: true, allowPositionals: false })
  const data = openData(values.db, 'reads')
  try {
    const profile = chooseProfile(data, values)
    const store = new CacheStore(data.db)
    const items = store.followedItems(profile.id)
    if (values.json) process.stdout.write(`${JSON.stringify(items)}\n`)
    else if (items.length === 0)
      process.stdout.write(`"${profile.name}" follows nothing; add items with sync --track-bulk-file, --track-transfer or --track-plan.\n`)
    else {
      for (const item of items) {
        const error = item.lastError ? ` — last problem: ${item.lastError}` : ''
        process.stdout.write(`${item.kind.padEnd(10)} ${item.value}  last synced ${item.lastSyncedAt ?? 'never'}${error}\n`)
      }
    }
    return 0
  } finally {
    await data.close()
  }
}

async function unfollowCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...COMMON,
      'bulk-file': { type: 'string', multiple: true },
      transfer: { type: 'string', multiple: true },
      plan: { type: 'string', multiple: true }
    },
    strict: true,
    allowPositionals: false
  })
  const wanted = [
    ...(values['bulk-file'] ?? []).map((value) => ({ kind: 'bulk_file' as const, value })),
    ...(values.transfer ?? []).map((value) => ({ kind: 'transfer' as const, value })),
    ...(values.plan ?? []).map((value) => ({ kind: 'plan' as const, value }))
  ]
  if (wanted.length === 0) throw new UsageError('unfollow needs --bulk-file ID, --transfer REF or --plan ID')
  const data = openData(values.db, 'reads')
  try {
    const profile = chooseProfile(data, values)
    const store = new CacheStore(data.db)
    const missing = wanted.filter((w) => !store.untrack(profile.id, w.kind, w.value))
    for (const w of wanted) if (!missing.includes(w)) process.stdout.write(`No longer following ${FOLLOW_KIND_NAMES[w.kind]} ${w.value}.\n`)
    if (missing.length > 0) {
      process.stderr.write(
        `ledgerline: not followed by "${profile.name}": ${missing.map((m) => `${FOLLOW_KIND_NAMES[m.kind]} ${m.value}`).join(', ')}\n`
      )
      return 1
    }
    return 0
  } finally {
    await data.close()
  }
}

function formatAmount(minor: number | null, raw: string | null, currency: string | null): string {
  if (minor !== null && currency) return `${toMajorString(minor, currency)} ${currency}`
  return raw ? `${raw} ${currency ?? ''}`.trim() : ''
}

async function searchCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...COMMON,
      ...FILTER_OPTIONS,
      resource: { type: 'string' },
      after: { type: 'string' },
      before: { type: 'string' },
      'page-size': { type: 'string' }
    },
    strict: true,
    allowPositionals: true
  })
  const data = openData(values.db, 'reads')
  try {
    const profile = chooseProfile(data, values)
    if (values.after && values.before) throw new UsageError('give --after or --before, not both')
    const query = {
      ...queryFrom(values, values.resource, positionals),
      pageSize: positiveInt('page-size', values['page-size'], 25, 1),
      ...(values.after ? { after: values.after } : {}),
      ...(values.before ? { before: values.before } : {})
    }
    const result = search(data.db, profile.id, query, { timeZone: profile.timeZone })
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ profile: { name: profile.name, mode: profile.mode }, ...result })}\n`)
      return 0
    }
    const total = `${result.total.toLocaleString('en-US')}${result.totalCapped ? '+' : ''}`
    process.stdout.write(
      `${total} ${query.resource} in "${profile.name}" (${profile.mode.toUpperCase()}, times in ${profile.timeZone}); showing ${result.items.length}\n`
    )
    for (const item of result.items) {
      const cells = [
        (formatInZone(item.date, profile.timeZone) ?? '').slice(0, 16).padEnd(16),
        (item.reference ?? item.key).padEnd(22),
        (item.name ?? '').slice(0, 24).padEnd(24),
        formatAmount(item.amountMinor, item.amountRaw, item.currency).padStart(20),
        item.statusRaw
      ]
      process.stdout.write(`${cells.join('  ')}\n`)
    }
    if (result.previousCursor) process.stdout.write(`previous page: --before ${result.previousCursor}\n`)
    if (result.nextCursor) process.stdout.write(`next page: --after ${result.nextCursor}\n`)
    return 0
  } finally {
    await data.close()
  }
}

async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...COMMON, ...FILTER_OPTIONS, resource: { type: 'string' }, out: { type: 'string' }, plain: { type: 'boolean' } },
    strict: true,
    allowPositionals: true
  })
  if (!values.resource) throw new UsageError(`export needs --resource (${SEARCH_RESOURCES.join(', ')})`)
  if (!values.out) throw new UsageError('export needs --out FILE')
  const out = outputPath('out', values.out)
  const data = openData(values.db, 'reads')
  try {
    const profile = chooseProfile(data, values)
    const result = await exportCsv({ file: data.file }, profile, queryFrom(values, values.resource, positionals), out, {
      style: values.plain ? 'plain' : 'excel'
    })
    process.stdout.write(
      values.json
        ? `${JSON.stringify(result)}\n`
        : `Wrote ${result.rows.toLocaleString('en-US')} ${values.resource} of "${profile.name}" (${profile.mode.toUpperCase()}) to ${result.file}${values.plain ? PLAIN_NOTE : ''}\n`
    )
    return 0
  } finally {
    await data.close()
  }
}

async function sandboxStatementCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      seed: { type: 'string' },
      payments: { type: 'string' },
      mode: { type: 'string' },
      'time-zone': { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  if (!values.out) throw new UsageError('sandbox statement needs --out FILE')
  const format = (values.format ?? 'csv') as SampleFormat
  if (!SAMPLE_FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${SAMPLE_FORMATS.join(', ')} (got "${values.format}")`)
  const mode = values.mode ?? 'test'
  if (mode !== 'test' && mode !== 'live') throw new UsageError(`--mode must be test or live (got "${mode}")`)
  const timeZone = values['time-zone'] ?? systemTimeZone()
  const seed = sandboxSeed({ seed: positiveInt('seed', values.seed, 1), payments: positiveInt('payments', values.payments, 5_000) })
  const statement = sampleStatement(seed, { timeZone, mode })
  const out = outputPath('out', values.out)
  const file = sampleStatementFile(statement, format)
  await writeFileSafely(out, (fd) => {
    writeSync(fd, file.bytes)
  })
  const { day, currency, lines: count, netOfFees } = statement
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ file: out, format, timeZone, day, currency, lines: count, netOfFees, differences: file.differences, ...(file.pageStarts ? { pageStarts: file.pageStarts } : {}) })}\n`
    )
    return 0
  }
  const lines = [
    `Wrote ${out} (${format}): ${statement.lines} lines for ${statement.day} (${statement.currency}, days in ${timeZone}), with these differences on purpose:`,
    ...file.differences.map(
      (d) =>
        `  ${(d.line === null ? 'not on it' : lineWhere(d.line, file.pageStarts)).padEnd(file.pageStarts ? 20 : 10)} ${d.kind.padEnd(12)} ${d.references.length > 3 ? `${d.references.slice(0, 3).join(', ')} and ${d.references.length - 3} more` : d.references.join(', ') || '-'}: ${d.expected}`
    ),
    'Reconcile it against a Sandbox profile synced from the same seed (credits are net of fees, which the matching finds itself):',
    `  ledgerline reconcile --source payments --against ${values.out} --out report.csv`
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  return 0
}

async function sandboxCommand(args: string[]): Promise<number> {
  if (args[0] === 'statement') return sandboxStatementCommand(args.slice(1))
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      payments: { type: 'string' },
      'no-rate-limits': { type: 'boolean' },
      'strict-spec': { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  const port = positiveInt('port', values.port, 0)
  if (port > 65535) throw new UsageError(`--port must be at most 65535 (got ${port})`)
  const sandbox = await startSandbox({
    port,
    seed: positiveInt('seed', values.seed, 1),
    payments: positiveInt('payments', values.payments, 5_000),
    rateLimits: !values['no-rate-limits'],
    strictSpec: values['strict-spec'] === true
  })
  process.stdout.write(
    `${JSON.stringify({ baseUrl: sandbox.baseUrl, testKey: sandbox.keys.test, liveKey: sandbox.keys.live, controlToken: sandbox.controlToken, bulkFileIds: sandbox.bulkFileIds, strictSpec: sandbox.strictSpec })}\n`
  )
  await new Promise<void>((done) => {
    process.once('SIGINT', () => done())
    process.once('SIGTERM', () => done())
  })
  await sandbox.close()
  return 0
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case 'sandbox':
        return await sandboxCommand(rest)
      case 'profile':
        return await profileCommand(rest)
      case 'sync':
        return await syncCommand(rest)
      case 'following':
        return await followingCommand(rest)
      case 'unfollow':
        return await unfollowCommand(rest)
      case 'search':
        return await searchCommand(rest)
      case 'export':
        return await exportCommand(rest)
      case 'import':
        return await importCommand(rest)
      case 'reconcile':
        return await reconcileCommand(rest)
      case 'audit':
        return await (rest.includes('--server') ? teamAuditCommand(rest) : auditCommand(rest))
      case 'decide':
        return await (rest.includes('--server') ? teamDecideCommand(rest) : decideCommand(rest))
      case 'accept-all':
        return await acceptAllCommand(rest)
      case 'sessions':
        return await sessionsCommand(rest)
      case 'report':
        return await reportCommand(rest)
      case 'undo':
        return await undoCommand(rest)
      case 'match':
        return await matchCommand(rest)
      case 'close':
        return await closeCommand(rest)
      case 'reopen':
        return await reopenCommand(rest)
      case 'csv':
        return await csvCommand(rest)
      case 'team':
        return await teamCommand(rest)
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
