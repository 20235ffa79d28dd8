// `ledgerline team …` (and decide/audit verify with --server): set up a workspace on a firm's PostgreSQL, manage its members, share sessions and move them through review; the server, not this client, decides who may do what, and a refusal exits 2 saying why.
import { parseArgs } from 'node:util'
import { readServerUrl, withServer, type TeamServer } from '../../main/team/connection'
import { listMembers, myRole, removeMember, setMember } from '../../main/team/members'
import { applyWorkspaceRules, workspaceRules } from '../../main/team/rules'
import { setupWorkspace } from '../../main/team/migrations'
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { codeIs } from '../../shared/error-codes'
import { AppError } from '../../main/errors'
import { Doorbell } from '../../main/team/doorbell'
import { replicaEvents, TeamReplicas, type PushOutcome, type Replica } from '../../main/team/replicas'
import { reportSignOff } from '../../main/team/report'
import {
  addSessionEventOnce,
  listSharedSessions,
  markSeen,
  sessionPresence,
  shareSession,
  verifySharedSession
} from '../../main/team/server-sessions'
import { shareRequestOf } from '../../main/team/share'
import { signOffPayload } from '../../main/team/sign-off'
import { ReconService } from '../../main/reconcile/service'
import { writeItemsCsv, writeXlsx } from '../../main/reconcile/report'
import type { Decision } from '../../shared/reconcile'
import { cliLocale, COMMON, itemKeyGiven, openData, outputPath, say, type Opened, UsageError } from '../common'

const TEAM_COMMANDS = 'setup, member add|remove|list, share, sessions, sync, submit, approve, return, reopen, report'

const SERVER = { server: { type: 'string' }, json: { type: 'boolean' }, db: COMMON.db } as const

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
      else if (outcome.applied.length === 0) say(`The workspace on ${target.url} is up to date (team schema ${outcome.to}).\n`)
      else
        say(
          `${outcome.from === 0 ? 'Set up' : 'Upgraded'} the workspace on ${target.url}: team schema ${outcome.from} → ${outcome.to} (${outcome.applied.join('; ')}). ${target.user} is its owner.\n`
        )
      return 0
    }
    case 'member':
      return memberCommand(rest)
    case 'share':
      return shareCommand(rest)
    case 'sync':
      return syncCommand(rest)
    case 'report':
      return reportCommand(rest)
    case 'sessions':
    case 'submit':
    case 'approve':
    case 'return':
    case 'reopen':
      return sessionCommand(sub, rest)
    default:
      throw new UsageError(
        sub === undefined ? `team needs a command: ${TEAM_COMMANDS}` : `team ${sub} is not a team command (${TEAM_COMMANDS})`
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
      say(`${login} is a ${role} of the workspace.\n`)
      return 0
    }
    case 'remove': {
      if (!login) throw new UsageError('team member remove needs a LOGIN')
      const removed = await withServer(target, (client) => removeMember(client, login))
      say(removed ? `${login} is no longer a member of the workspace.\n` : `${login} was not a member of the workspace.\n`)
      return 0
    }
    case 'list': {
      const members = await withServer(target, listMembers)
      if (values.json) process.stdout.write(`${JSON.stringify(members)}\n`)
      else if (members.length === 0) say('The workspace has no members yet (team member add LOGIN --role …).\n')
      else for (const m of members) say(`${m.login.padEnd(24)} ${m.role.padEnd(9)} added by ${m.addedBy} ${m.addedAt}\n`)
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

/** `team share --server URL --db FILE --session ID`: publishes a local session with its statements as imported, the provider records it reads, and the decisions made so far. */
async function shareCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: SESSION, strict: true })
  const target = server(values.server)
  const id = sessionId(values.session, 'team share')
  const data = openData(values.db, 'reads')
  try {
    const request = shareRequestOf(data.db, id)
    const seq = await withServer(target, (client) => shareSession(client, request))
    data.log.info(`cli: shared session ${id} to ${target.url}`)
    const files = request.inputs.filter((i) => i.kind === 'statement').length
    say(
      `Shared "${request.name}" (${request.periodFrom} to ${request.periodTo}) with the workspace on ${target.url}: ${files} statement file(s) and the provider records it reads (event ${seq}). Members see it in team sessions; team sync opens it on their computers.\n`
    )
    return 0
  } finally {
    await data.close()
  }
}

/** Pushes what waits in the outbox, then opens or pulls every shared session (or the one named); says what changed. */
async function syncOnce(
  client: pg.Client,
  replicas: TeamReplicas,
  only: string | undefined,
  out: (line: string) => void
): Promise<PushOutcome & { failed: number }> {
  const pushed = await replicas.push(client)
  if (pushed.sent > 0) out(`Sent ${pushed.sent} event(s) that waited on this computer.`)
  for (const c of pushed.conflicts)
    out(`Refused, now a conflict on ${c.itemKey ? `item ${c.itemKey}` : 'the session'}: ${c.message} [${c.code}]`)
  const shared = (await listSharedSessions(client)).filter((s) => only === undefined || s.id === only)
  if (only !== undefined && shared.length === 0) throw new UsageError(`there is no shared session ${only} in this workspace`)
  // A preparer's sync applies the workspace's enabled rules to the open sessions it pulls.
  const rules = (await myRole(client)) === 'preparer' ? await workspaceRules(client) : []
  let failed = 0
  for (const s of shared) {
    try {
      const { replica, created, pulled } = await replicas.open(client, s.id)
      const what = created
        ? `opened on this computer (${pulled.events} event(s))`
        : pulled.events > 0
          ? `${pulled.events} new event(s)`
          : 'up to date'
      out(`${s.id}  ${s.name}: ${what}; ${replica.state.toUpperCase()}${replica.readOnly ? ` (read-only here: ${replica.readOnly})` : ''}`)
      for (const p of pulled.problems) out(`  ${p}`)
      const ruled = await applyWorkspaceRules(client, replicas, replicas.require(s.id), rules)
      if (ruled > 0) out(`  The workspace's rules decided ${ruled} line(s); each is an event naming its rule and version.`)
    } catch (error) {
      if (!(error instanceof AppError) || codeIs(error, 'team_unreachable')) throw error
      failed++
      out(`${s.id}  ${s.name}: not opened: ${error.message} [${error.code}]`)
    }
  }
  return { ...pushed, failed }
}

/** `team sync --server URL --db FILE [--session ID] [--watch]`: send what waits, pull what is new; with --watch, again at every ring of the doorbell until stopped. */
async function syncCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...SESSION, watch: { type: 'boolean' } }, strict: true })
  const target = server(values.server)
  const data = openData(values.db, 'fills')
  try {
    const replicas = new TeamReplicas(data.db, target)
    const out = (line: string): void => void say(`${line}\n`)
    const once = (): Promise<PushOutcome & { failed: number }> =>
      withServer(target, (client) => syncOnce(client, replicas, values.session, out))
    const first = await once()
    if (!values.watch) return first.failed > 0 ? 1 : 0
    // Live: one listener; each ring (or reconnect) pulls, one sync at a time.
    let running: Promise<unknown> = Promise.resolve()
    let again = false
    const ring = (): void => {
      if (again) return
      again = true
      running = running.then(async () => {
        again = false
        await once().catch((error: unknown) => out(`Sync failed: ${(error as Error).message}; trying again at the next ring.`))
      })
    }
    const bell = new Doorbell(target, ring, {
      onState: (state, why) =>
        out(state === 'lost' ? `Lost the workspace (${why}); reconnecting…` : 'Listening for changes (Ctrl+C stops).')
    })
    await bell.start()
    await new Promise<void>((done) => {
      process.once('SIGINT', done)
      process.once('SIGTERM', done)
    })
    await bell.stop()
    await running
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
    const [sessions, presence] = await withServer(
      target,
      async (client) => [await listSharedSessions(client), await sessionPresence(client)] as const
    )
    const listed = sessions.map((s) => ({ ...s, openBy: presence.get(s.id) ?? [] }))
    if (values.json) process.stdout.write(`${JSON.stringify(listed)}\n`)
    else if (listed.length === 0) say('No session is shared in this workspace yet.\n')
    else
      for (const s of listed)
        say(
          `${s.id}  ${s.name}  ${s.periodFrom ?? '?'} to ${s.periodTo ?? '?'}  ${s.state.toUpperCase()}  prepared by ${s.preparer}${s.reviewer ? `, reviewed by ${s.reviewer}` : ''}  ${s.decisions} decision(s), ${s.notes} note(s)${s.openBy.length ? `  open now by ${s.openBy.join(', ')}` : ''}\n`
        )
    return 0
  }
  const session = sessionId(values.session, `team ${sub}`)
  const kind = sub as 'submit' | 'approve' | 'return' | 'reopen'
  if ((kind === 'return' || kind === 'reopen') && !values.reason?.trim())
    throw new UsageError(`team ${kind} needs --reason TEXT (kept with the session's history)`)
  let payload: Record<string, unknown> = values.reason ? { reason: values.reason.trim() } : {}
  if (kind === 'submit' || kind === 'approve') {
    // A submission or an approval names the items it is of, as replayed in the member's cache.
    const data = openData(values.db, 'fills')
    try {
      const { replicas, replica } = await replicaOf(data, target, session)
      await withServer(target, (client) => replicas.pull(client, replica))
      payload = signOffPayload(data.db, replicas.require(session), kind, values.reason)
    } finally {
      await data.close()
    }
  }
  const seq = await withServer(target, (client) => addSessionEventOnce(client, randomUUID(), session, kind, payload))
  const done = { submit: 'submitted for review', approve: 'approved', return: 'returned to its preparers', reopen: 'reopened' }[kind]
  say(`Session ${session} ${done} (event ${seq}).\n`)
  return 0
}

/** The replica of a shared session in the member's cache, opened (downloaded and replayed) when this computer has not yet. */
async function replicaOf(data: Opened, target: TeamServer, session: string): Promise<{ replicas: TeamReplicas; replica: Replica }> {
  const replicas = new TeamReplicas(data.db, target)
  const known = replicas.get(session)
  if (known) return { replicas, replica: known }
  const { replica } = await withServer(target, (client) => replicas.open(client, session))
  return { replicas, replica }
}

const DECIDE_ACTIONS = ['accept', 'reject', 'resolve', 'unresolve', 'unmatch', 'note'] as const

/**
 * `decide --server URL --db FILE --session ID --item KEY accept|reject|resolve|unresolve|unmatch|note TEXT [--based-on VERSION]`:
 * a decision (a note is a comment, and all a reviewer may add) on a shared session, queued in the
 * cache's outbox and sent at once: refused when the item changed since the version it was based on
 * (the one this computer has, unless given), kept for the next team sync when the server cannot be reached.
 */
export async function teamDecideCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...SESSION, item: { type: 'string' }, 'based-on': { type: 'string' } },
    strict: true,
    allowPositionals: true
  })
  const target = server(values.server)
  const session = sessionId(values.session, 'decide --server')
  const [action, ...words] = positionals
  const raw = values.item
  if (!raw) throw new UsageError("give the item with --item KEY (the report's item_key column)")
  const given = itemKeyGiven(raw)
  if (!action || !(DECIDE_ACTIONS as readonly string[]).includes(action))
    throw new UsageError(`decide --server needs one of ${DECIDE_ACTIONS.join(', ')}`)
  const text = words.join(' ').trim()
  if (action === 'note' && text === '') throw new UsageError('decide note needs the note text')
  if (action !== 'note' && text !== '') throw new UsageError(`decide ${action} takes no text (got "${text}")`)
  const basedOn = values['based-on'] === undefined ? undefined : Number(values['based-on'])
  if (basedOn !== undefined && (!Number.isInteger(basedOn) || basedOn < 0)) throw new UsageError('--based-on is an item version: 0, 1, 2…')
  const data = openData(values.db, 'fills')
  try {
    const { replicas, replica } = await replicaOf(data, target, session)
    // A short key (the report's) names the item; the workspace keeps it by its full key.
    const found = new ReconService(data.db).item(replica.sessionId, given)
    const itemKey = found?.key ?? given
    let ref: string
    if (action === 'note') ref = replicas.queueNote(replica, itemKey, text)
    else {
      if (!found)
        throw new UsageError(
          `no item "${given}" in session ${session} as this computer has it (team sync, then copy it from team report's item_key column)`
        )
      const decision: Decision =
        action === 'resolve' || action === 'unresolve'
          ? { kind: 'resolve', itemKey, resolved: action === 'resolve' }
          : { kind: action as 'accept' | 'reject' | 'unmatch', itemKey }
      ref = replicas.queueDecision(replica, decision, basedOn).ref
    }
    return await sent(replicas, replica, ref, target, session, action === 'note' ? 'note' : 'decision', () =>
      action === 'note' ? `Noted item ${itemKey}` : `Decided (${action}) item ${itemKey}`
    )
  } finally {
    await data.close()
  }
}

/** `undo --server URL --session ID [--db FILE]`: takes back the session's last decision through the workspace (preparers), queued and sent as a decision is. */
export async function teamUndoCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: SESSION, strict: true })
  const target = server(values.server)
  const session = sessionId(values.session, 'undo --server')
  const data = openData(values.db, 'fills')
  try {
    const { replicas, replica } = await replicaOf(data, target, session)
    const { ref } = replicas.queueDecision(replica, { kind: 'undo' })
    return await sent(replicas, replica, ref, target, session, 'undo', () => 'Undid the last decision')
  } finally {
    await data.close()
  }
}

/** Sends one queued event at once and says what became of it: sent (the session's event now), waiting (the server out of reach), or refused. */
async function sent(
  replicas: TeamReplicas,
  replica: Replica,
  ref: string,
  target: TeamServer,
  session: string,
  what: string,
  done: () => string
): Promise<number> {
  const outcome = await replicas.send(replica, [ref], (work) => withServer(target, work))
  if (!outcome.sent) {
    say(
      `The workspace cannot be reached (${outcome.unreachable}): the ${what} waits on this computer (${replicas.queued()} queued) and is sent by the next team sync.\n`
    )
    return 0
  }
  const [refused] = outcome.refused
  if (refused) throw new AppError(refused.code, refused.message)
  say(`${done()} in session ${session}; the session is at event ${replicas.require(session).lastSeq}.\n`)
  return 0
}

/** `team report --server URL --db FILE --session ID --out FILE.csv [--xlsx FILE]`: the items as replayed here (after a sync) and the sign-off beside them. */
async function reportCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...SESSION, out: { type: 'string' }, xlsx: { type: 'string' } }, strict: true })
  const target = server(values.server)
  const session = sessionId(values.session, 'team report')
  if (!values.out) throw new UsageError('team report needs --out FILE.csv (the items; the sign-off is written beside it)')
  const out = outputPath('out', values.out)
  const xlsx = values.xlsx === undefined ? undefined : outputPath('xlsx', values.xlsx)
  const data = openData(values.db, 'fills')
  try {
    const { replicas } = await replicaOf(data, target, session)
    await withServer(target, async (client) => {
      await replicas.pull(client, replicas.require(session))
      await markSeen(client, session)
    })
    const replica = replicas.require(session)
    const events = replicaEvents(data.db, replica)
    const service = new ReconService(data.db)
    const profile = data.db
      .prepare('select p.name, p.mode from profiles p join recon_sessions s on s.profile_id = p.id where s.id = ?')
      .get(replica.sessionId) as { name: string; mode: string }
    const signOff = reportSignOff(events)
    const input = { ...service.reportInput(replica.sessionId, profile), signOff: signOff.sheet, locale: cliLocale() }
    const { summary } = await writeItemsCsv(out, input, 'excel')
    const signOffFile = await signOff.writeBeside(out)
    if (xlsx) await writeXlsx(xlsx, summary, input)
    const last = events[events.length - 1]
    say(
      `Wrote ${out} (items) and ${signOffFile} (sign-off)${xlsx ? ` and ${xlsx}` : ''} for "${replica.name}": ${replica.state.toUpperCase()}, prepared by ${replica.preparer}${replica.reviewer ? `, reviewed by ${replica.reviewer}` : ''}; ${summary.exceptions} exception(s); ${events.length} event(s), the last hash ${last?.hash ?? '(none)'}.\n`
    )
    return 0
  } finally {
    await data.close()
  }
}

/** `audit verify --server URL --session ID`: the chain recomputed from the server's rows; exit 1 naming the first event that does not fit. */
export async function teamAuditCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args
  if (action !== 'verify') throw new UsageError(`audit needs verify (got "${action ?? ''}")`)
  const { values } = parseArgs({ args: rest, options: SESSION, strict: true })
  const target = server(values.server)
  const session = sessionId(values.session, 'audit verify --server')
  const check = await withServer(target, (client) => verifySharedSession(client, session))
  if (check === null) throw new UsageError(`there is no shared session ${session} in this workspace`)
  if (values.json) process.stdout.write(`${JSON.stringify(check)}\n`)
  else if (check.ok) say(`Session ${session}: audit trail intact, ${check.events} event(s), every hash checked.\n`)
  else {
    const bad = check.firstBad
    say(`Session ${session}, event ${bad?.seq}${bad?.author ? ` by ${bad.author} at ${bad.at}` : ''}: ${bad?.problem}.\n`)
    process.stderr.write('ledgerline: the shared audit trail was changed\n')
  }
  return check.ok ? 0 : 1
}
