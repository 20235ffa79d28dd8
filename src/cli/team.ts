// `ledgerline team …`: set up a workspace on a firm's PostgreSQL and manage its members; the server, not this client, decides who may do what, and a refusal exits 2 saying why.
import { parseArgs } from 'node:util'
import { readServerUrl, withServer } from '../main/team/connection'
import { listMembers, removeMember, setMember } from '../main/team/members'
import { setupWorkspace } from '../main/team/migrations'
import { UsageError } from './common'

/** Refusals by the workspace (role, state, separation of duties, conflict, its schema) and logins it refuses: the user's to fix. */
export const TEAM_REFUSALS = new Set([
  'team_role_refused',
  'team_state_refused',
  'team_duties_refused',
  'team_conflict',
  'team_schema_refused',
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

function server(value: string | undefined): ReturnType<typeof readServerUrl> {
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
    default:
      throw new UsageError(
        `team ${sub ?? ''} is not a team command (setup, member add|remove|list)`.replace('team  is', 'team needs a command:')
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
