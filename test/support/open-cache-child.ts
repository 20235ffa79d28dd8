// Opens (creating and migrating) a cache file at an agreed moment, for the test that two processes can do so at once.
import { openCache } from '../../src/main/cache/open'

const [file, startAt] = process.argv.slice(2)
while (Date.now() < Number(startAt)) {
  // Spin until the agreed moment, so both processes reach the migrations together.
}
try {
  const db = openCache(file as string)
  process.stdout.write(String(db.pragma('user_version', { simple: true })))
  db.close()
} catch (error) {
  process.stderr.write(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
