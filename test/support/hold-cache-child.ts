// Another Ledgerline with the cache open (as the app's host is) until it is killed. Used by test/cli/backup-cli.test.ts.
import { openCache } from '../../src/main/cache/open'

openCache(process.argv[2] as string)
process.stdout.write('open\n')
// Held open until the test kills this process (its stdin, the test's pipe, keeps it alive).
process.stdin.resume()
