// Opens (creating or migrating) one cache file each time the test says so, for the test that several processes can do
// so at once. Reads "FILE" lines on stdin (the barrier: every process gets its line at the same moment) and answers
// each with one JSON line: the schema version it saw, or the error's code and text. Says "ready" once loaded.
import { createInterface } from 'node:readline'
import { openCache } from '../../src/main/cache/open'

export type OpenAnswer = { file: string; version: number } | { file: string; error: string }

const lines = createInterface({ input: process.stdin })
lines.on('line', (file) => {
  let answer: OpenAnswer
  try {
    const db = openCache(file)
    answer = { file, version: db.pragma('user_version', { simple: true }) as number }
    db.close()
  } catch (error) {
    answer = { file, error: `${(error as { code?: string }).code ?? 'error'}: ${error instanceof Error ? error.message : String(error)}` }
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`)
})
process.stdout.write('ready\n')
