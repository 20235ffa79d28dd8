// `ledgerline team …` (and decide/audit verify with --server): set up a workspace on a firm's PostgreSQL, manage its members, share sessions and move them through review; the server, not this client, decides who may do what, and a refusal exits 2 saying why.
import { parseArgs } from 'node:util'
import { readServerUrl, withServer, type TeamServer } from '../main/team/connection'
import { listMembers, removeMember, setMember } from '../main/team/members'
import { setupWorkspace } from '../main/team/migrations'
import { addSessionEvent, itemVersion, listSharedSessions, shareSession, verifySharedSession } from '../main/team/sessions'
import { RULE_VERSION } from '../shared/reconcile'
import { ReconService } from '../main/reconcile/service'
import { COMMON, openData, UsageError } from './common'

/** Refusals by the workspace (role, state, separation of duties, conflict, its schema) and logins it refuses: the user's to fix. */
export const TEAM_REFUSALS = new Set([
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
  'bad_team_role'
])

const SERVER = { server: { type: 'string' }, json: { type: 'boolean' } } as const

function server(value: string | undefined): TeamServer {
  if (!value)
    throw new UsageError('team commands need --server postgres://LOGIN@HOST:5432/DATABASE (the password from PGPASSWORD or ~/.pgpass)')
  return readServerUrl(value)
}

export async function teamCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args
  switch (sub) {
    case 'setup': {
      const { values } = parseArgs({ args: rest, options: SERVER, strict: true })
      const target = server(values.server)
      const outcome = await withServer(target, setupWorkspace)
      if (values.json) process.stdout.write(`${JSON.stringify(outcome)}\n`)
      else if (outcome.applied.length === 0)
        process.stdout.write(`The workspace on ${target.url} is up to date (team schema ${outcome.to}).\n`)
      else
        process.stdout.write(
          `${outcome.from === 0 ? 'Set up' : 'Upgraded'} the workspace on ${target.url}: team schema ${outcome.from} → ${outcome.to} (${outcome.applied.join('; ')}). ${target.user} is its owner.\n`
        )
      return 0
    }
    case 'member':
      return memberCommand(rest)
    case 'share':
      return shareCommand(rest)
    case 'sessions':
    case 'submit':
    case 'approve':
    case 'return':
    case 'reopen':
      return sessionCommand(sub, rest)
    default:
      throw new UsageError(
        sub === undefined
          ? 'team needs a command: setup, member add|remove|list, share, sessions, submit, approve, return, reopen'
          : `team ${sub} is not a team command (setup, member add|remove|list, share, sessions, submit, approve, return, reopen)`
      )
  }
}

async function memberCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    options: { ...SERVER, role: { type: 'string' } },
    allowPositionals: true,
    strict: true
  })
  const target = server(values.server)
  const login = positionals[0]
  switch (action) {
    case 'add': {
      if (!login || !values.role) throw new UsageError('team member add needs a LOGIN and --role preparer|reviewer|admin')
      const role = values.role
      await withServer(target, (client) => setMember(client, login, role))
      process.stdout.write(`${login} is a ${role} of the workspace.\n`)
      return 0
    }
    case 'remove': {
      if (!login) throw new UsageError('team member remove needs a LOGIN')
      const removed = await withServer(target, (client) => removeMember(client, login))
      process.stdout.write(removed ? `${login} is no longer a member of the workspace.\n` : `${login} was not a member of the workspace.\n`)
      return 0
    }
    case 'list': {
      const members = await withServer(target, listMembers)
      if (values.json) process.stdout.write(`${JSON.stringify(members)}\n`)
      else if (members.length === 0) process.stdout.write('The workspace has no members yet (team member add LOGIN --role …).\n')
      else for (const m of members) process.stdout.write(`${m.login.padEnd(24)} ${m.role.padEnd(9)} added by ${m.addedBy} ${m.addedAt}\n`)
      return 0
    }
    default:
      throw new UsageError('team member needs add, remove or list')
  }
}

const SESSION = { ...SERVER, session: { type: 'string' }, reason: { type: 'string' } } as const

function sessionId(value: string | undefined, command: string): string {
  if (!value) throw new UsageError(`${command} needs --session ID (team sessions lists them)`)
  return value
}

/** `team share --server URL --db FILE --session ID`: publishes a local session with its statements as imported and the provider records it reads. */
async function shareCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...SESSION, db: COMMON.db }, strict: true })
  const target = server(values.server)
  const id = sessionId(values.session, 'team share')
  const data = openData(values.db, 'reads')
  try {
    const { session, statements, providerRecords } = new ReconService(data.db).inputs(id)
    const seq = await withServer(target, (client) =>
      shareSession(client, {
        id: session.id,
        name: session.name,
        periodFrom: session.from,
        periodTo: session.to,
        ruleVersion: RULE_VERSION,
        settings: { settings: session.settings, source: session.source, filter: session.filter, timeZone: session.timeZone },
        inputs: [
          ...statements.map((f) => ({ kind: 'statement' as const, name: f.name, bytes: f.bytes })),
          { kind: 'provider_records' as const, name: `${session.source}.json`, bytes: providerRecords }
        ]
      })
    )
    data.log.info(`cli: shared session ${session.id} to ${target.url}`)
    process.stdout.write(
      `Shared "${session.name}" (${session.from} to ${session.to}) with the workspace on ${target.url}: ${statements.length} statement file(s) and the provider records it reads (event ${seq}). Members see it in team sessions.\n`
    )
    return 0
  } finally {
    await data.close()
  }
}

/** `team sessions`, `team submit|approve`, `team return --reason`, `team reopen --reason`. */
async function sessionCommand(sub: string, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: SESSION, strict: true })
  const target = server(values.server)
  if (sub === 'sessions') {
    const sessions = await withServer(target, listSharedSessions)
    if (values.json) process.stdout.write(`${JSON.stringify(sessions)}\n`)
    else if (sessions.length === 0) process.stdout.write('No session is shared in this workspace yet.\n')
    else
      for (const s of sessions)
        process.stdout.write(
          `${s.id}  ${s.name}  ${s.periodFrom ?? '?'} to ${s.periodTo ?? '?'}  ${s.state.toUpperCase()}  prepared by ${s.preparer}${s.reviewer ? `, reviewed by ${s.reviewer}` : ''}  ${s.decisions} decision(s), ${s.notes} note(s)\n`
        )
    return 0
  }
  const session = sessionId(values.session, `team ${sub}`)
  const kind = sub as 'submit' | 'approve' | 'return' | 'reopen'
  if ((kind === 'return' || kind === 'reopen') && !values.reason?.trim())
    throw new UsageError(`team ${kind} needs --reason TEXT (kept with the session's history)`)
  const payload = values.reason ? { reason: values.reason.trim() } : {}
  const seq = await withServer(target, (client) => addSessionEvent(client, session, kind, payload))
  const done = { submit: 'submitted for review', approve: 'approved', return: 'returned to its preparers', reopen: 'reopened' }[kind]
  process.stdout.write(`Session ${session} ${done} (event ${seq}).\n`)
  return 0
}

/** `decide --server URL --session ID --item KEY accept|reject|resolve|note TEXT [--based-on VERSION]`: a decision on a shared session, refused as a conflict when the item changed since the version it was based on. */
export async function teamDecideCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...SESSION, item: { type: 'string' }, 'based-on': { type: 'string' }, db: { type: 'string' } },
    strict: true,
    allowPositionals: true
  })
  const target = server(values.server)
  const session = sessionId(values.session, 'decide --server')
  const [action, ...words] = positionals
  const item = values.item
  if (!item) throw new UsageError("give the item with --item KEY (the report's item_key column)")
  const actions = ['accept', 'reject', 'resolve', 'note']
  if (!action || !actions.includes(action)) throw new UsageError(`decide --server needs one of ${actions.join(', ')}`)
  const text = words.join(' ').trim()
  if (action === 'note' && text === '') throw new UsageError('decide note needs the note text')
  const basedOn = values['based-on'] === undefined ? null : Number(values['based-on'])
  if (basedOn !== null && (!Number.isInteger(basedOn) || basedOn < 0)) throw new UsageError('--based-on is an item version: 0, 1, 2…')
  const seq = await withServer(target, async (client) => {
    if (action === 'note') return addSessionEvent(client, session, 'note', { text }, { key: item, basedOn: 0 })
    // Based on the version given (what the user saw), else the one the server has now.
    const version = basedOn ?? (await itemVersion(client, session, item))
    return addSessionEvent(client, session, 'decision', { action }, { key: item, basedOn: version })
  })
  process.stdout.write(`${action === 'note' ? 'Noted' : `Decided (${action})`} item ${item} in session ${session} (event ${seq}).\n`)
  return 0
}

/** `audit verify --server URL --session ID`: the chain recomputed from the server's rows; exit 1 naming the first event that does not fit. */
export async function teamAuditCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args
  if (action !== 'verify') throw new UsageError(`audit needs verify (got "${action ?? ''}")`)
  const { values } = parseArgs({ args: rest, options: { ...SESSION, db: { type: 'string' } }, strict: true })
  const target = server(values.server)
  const session = sessionId(values.session, 'audit verify --server')
  const check = await withServer(target, (client) => verifySharedSession(client, session))
  if (check === null) throw new UsageError(`there is no shared session ${session} in this workspace`)
  if (values.json) process.stdout.write(`${JSON.stringify(check)}\n`)
  else if (check.ok) process.stdout.write(`Session ${session}: audit trail intact, ${check.events} event(s), every hash checked.\n`)
  else {
    const bad = check.firstBad
    process.stdout.write(`Session ${session}, event ${bad?.seq}${bad?.author ? ` by ${bad.author} at ${bad.at}` : ''}: ${bad?.problem}.\n`)
    process.stderr.write('ledgerline: the shared audit trail was changed\n')
  }
  return check.ok ? 0 : 1
}
