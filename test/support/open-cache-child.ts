// Opens (creating and migrating) a series of new cache files, each at an agreed moment, for the test that several
// processes can do so at once. Prints one JSON line: each round's schema version or error.
import { join } from 'node:path'
import { openCache } from '../../src/main/cache/open'

const [dir, firstStart, rounds, spacingMs] = process.argv.slice(2)
const results: (number | string)[] = []
for (let round = 0; round < Number(rounds); round++) {
  const at = Number(firstStart) + round * Number(spacingMs)
  while (Date.now() < at) {
    // Spin until the agreed moment, so every process reaches the same new file together.
  }
  try {
    const db = openCache(join(dir as string, `cache-${round}.sqlite`))
    results.push(db.pragma('user_version', { simple: true }) as number)
    db.close()
  } catch (error) {
    results.push(error instanceof Error ? error.message : String(error))
  }
}
process.stdout.write(`${JSON.stringify(results)}\n`)
