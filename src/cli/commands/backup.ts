// ledgerline backup and restore: the cache (months of work) backed up online into its backups folder (or a file given), the backups listed with what each holds, and one restored after a check of the file, with the cache as it was kept aside first.
import { parseArgs } from 'node:util'
import { basename, resolve } from 'node:path'
import { backupCache, backupFolder, backupNamed, listBackups, restoreCache, rotateBackups, type BackupInfo } from '../../main/cache/backup'
import { otherOpeners } from '../../main/cache/open'
import { countSessions } from '../../main/reconcile/sessions'
import { COMMON, openData, outputPath, say, UsageError } from '../common'
import { sizeInWords } from '../progress'

/** Sessions are counted in every backup the CLI lists, takes or restores. */
const COUNTS = { sessions: countSessions }

const OPTIONS = { db: COMMON.db, json: COMMON.json, out: { type: 'string' } } as const

/** `backup [--out FILE]`, `backup list`. */
export async function backupCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true })
  const [sub, ...more] = positionals
  if ((sub !== undefined && sub !== 'list') || more.length > 0)
    throw new UsageError('backup takes no argument (a backup now), or list (the backups kept); --out FILE writes it where you say')
  const data = openData(values.db, 'reads')
  try {
    if (sub === 'list') {
      const backups = listBackups(data.file, COUNTS)
      if (values.json) process.stdout.write(`${JSON.stringify(backups)}\n`)
      else if (backups.length === 0) say(`No backups of ${data.file} yet (in ${backupFolder(data.file)}); ledgerline backup takes one.\n`)
      else {
        say(`Backups of ${data.file}, newest first (in ${backupFolder(data.file)}):\n`)
        for (const b of backups) say(`  ${describe(b)}\n`)
      }
      return 0
    }
    const to = values.out === undefined ? undefined : outputPath('out', values.out)
    const backup = await backupCache(data.db, { reason: 'manual', counts: COUNTS, ...(to ? { to } : {}) })
    const removed = to ? [] : rotateBackups(data.file)
    data.log.info(`cli: backed up ${data.file} to ${backup.path}`)
    if (values.json) process.stdout.write(`${JSON.stringify({ ...backup, rotatedOut: removed })}\n`)
    else
      say(
        `Backed up ${data.file} to ${backup.path}: ${describe(backup, false)}${removed.length > 0 ? `\nThe rotation let go of ${removed.length} older backup(s): ${removed.join(', ')}` : ''}\n`
      )
    return 0
  } finally {
    await data.close()
  }
}

/** `restore FILE`: a backup (a name from backup list, or a file's path) restored into the cache. */
export async function restoreCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { db: COMMON.db, json: COMMON.json }, strict: true, allowPositionals: true })
  const [given, ...more] = positionals
  if (!given || more.length > 0) throw new UsageError('restore needs one backup: a name from ledgerline backup list, or a file')
  const data = openData(values.db, 'reads')
  try {
    const from = backupNamed(data.file, given, COUNTS)?.path ?? resolve(given)
    const others = otherOpeners(data.db)
    if (others.length > 0)
      throw new UsageError(
        `the cache ${data.file} is open in another Ledgerline (process ${others.join(', ')}); close it first, or restore from its Backups card (nothing was changed)`
      )
    const { restored, keptAside } = await restoreCache(data.db, from, { counts: COUNTS })
    data.log.info(`cli: restored ${from} into ${data.file}; the cache as it was is in ${keptAside.path}`)
    if (values.json) process.stdout.write(`${JSON.stringify({ restored, keptAside })}\n`)
    else
      say(
        `Restored ${basename(from)} into ${data.file}: ${describe(restored, false)}.\nThe cache as it was is kept aside in ${keptAside.path} (ledgerline restore ${keptAside.name} takes it back).\n`
      )
    return 0
  } finally {
    await data.close()
  }
}

/** A backup in words: its name (in a list), when and why it was taken, its size and what it holds. */
function describe(b: BackupInfo, named = true): string {
  const when = b.takenAt ? `${b.takenAt.slice(0, 19).replace('T', ' ')} UTC, ` : ''
  const why = b.reason === 'given' ? '' : `${b.reason.replace(/-/g, ' ')}, `
  return `${named ? `${b.name}  ` : ''}${when}${why}${sizeInWords(b.bytes)}: ${b.profiles} profile(s), ${b.sessions === null ? '' : `${b.sessions} session(s), `}${b.records.toLocaleString('en-US')} record(s), schema ${b.schema}`
}
