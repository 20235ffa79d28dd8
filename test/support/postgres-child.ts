// A test process that starts a throwaway PostgreSQL and is then killed: says the server's port and folder, and waits. Used by test/team/postgres-harness.test.ts.
import { startPostgres } from './postgres'

async function main(): Promise<void> {
  const server = await startPostgres()
  const dir = ((await server.sql('show data_directory')).rows[0] as { data_directory: string }).data_directory
  process.stdout.write(`${JSON.stringify({ port: server.port, dir })}\n`)
  // Held until the test kills this process (its stdin, the test's pipe, keeps it alive).
  process.stdin.resume()
}

void main()
