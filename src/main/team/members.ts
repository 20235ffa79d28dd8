// A workspace's members: PostgreSQL logins given a Ledgerline role (preparer, reviewer, admin) through the workspace's own functions, which check that the caller is its owner or an admin.
import type pg from 'pg'
import { TEAM_ROLES, type TeamRole } from '../../shared/ipc/team'
import { AppError } from '../errors'

export interface Member {
  login: string
  role: TeamRole
  addedBy: string
  addedAt: string
}

function checkRole(role: string): TeamRole {
  if (!(TEAM_ROLES as readonly string[]).includes(role))
    throw new AppError('bad_team_role', `"${role}" is not a workspace role: preparer, reviewer or admin.`)
  return role as TeamRole
}

export async function setMember(client: pg.Client, login: string, role: string): Promise<void> {
  await client.query('select ledgerline.member_set($1, $2)', [login, checkRole(role)])
}

/** True when the login was a member. */
export async function removeMember(client: pg.Client, login: string): Promise<boolean> {
  const result = await client.query<{ removed: boolean }>('select ledgerline.member_remove($1) as removed', [login])
  return result.rows[0]?.removed === true
}

export async function listMembers(client: pg.Client): Promise<Member[]> {
  const result = await client.query<{ login: string; role: TeamRole; added_by: string; added_at: Date }>(
    'select login, role, added_by, added_at from ledgerline.member_list()'
  )
  return result.rows.map((r) => ({ login: r.login, role: r.role, addedBy: r.added_by, addedAt: r.added_at.toISOString() }))
}

/** The caller's own role in the workspace; null when not a member. */
export async function myRole(client: pg.Client): Promise<TeamRole | null> {
  return ((await client.query<{ role: TeamRole | null }>('select ledgerline.my_role() as role')).rows[0]?.role ?? null) as TeamRole | null
}
