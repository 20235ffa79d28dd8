// A backup killed (SIGKILL, as kill -9 does) halfway through copying the cache's pages. Used by test/cache/backup.test.ts.
import { backupCache } from '../../src/main/cache/backup'
import { openCache } from '../../src/main/cache/open'

async function main(): Promise<void> {
  const db = openCache(process.argv[2] as string)
  let steps = 0
  await backupCache(db, {
    reason: 'manual',
    onProgress: (done, total) => {
      // Killed once some pages are copied and many are not.
      if (++steps === 3 && done < total) process.kill(process.pid, 'SIGKILL')
    }
  })
  process.stderr.write('the backup finished before it could be killed\n')
}

void main()
