// The firm the team tests work in: the workspace set up on a test server by its owner, with alice and erin its preparers and bob its reviewer.
import { expect } from 'vitest'
import type { CliRun } from './cli'
import type { TestPostgres } from './postgres'

/** Creates the logins (each with its password), sets the workspace up as "owner" and gives each member a role, through the CLI as a firm would. */
export async function firmWorkspace(
  server: TestPostgres,
  passwords: Record<string, string>,
  as: (login: string, ...args: string[]) => Promise<CliRun>
): Promise<void> {
  await server.createLogin('owner', passwords.owner as string)
  await server.sql('grant create on database postgres to owner')
  for (const login of ['alice', 'erin', 'bob']) await server.createLogin(login, passwords[login] as string)
  const setup = await as('owner', 'team', 'setup')
  expect(setup.code, setup.stderr).toBe(0)
  for (const [login, role] of [
    ['alice', 'preparer'],
    ['erin', 'preparer'],
    ['bob', 'reviewer']
  ] as const) {
    const added = await as('owner', 'team', 'member', 'add', login, '--role', role)
    expect(added.code, added.stderr).toBe(0)
  }
}
