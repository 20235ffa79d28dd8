// Every file Ledgerline writes for people (exports, reconciliation reports) goes through here: an exclusively created temporary file, renamed under its name only when complete.
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { AppError } from '../errors'
import { processRunning } from '../processes'

/**
 * A new file beside the target, created exclusively (O_CREAT|O_EXCL, owner-only) under a random
 * name: nothing already there, such as a planted symlink, is ever opened or overwritten.
 */
export function createTempFile(file: string): { path: string; fd: number } {
  removeStalePartials(file)
  const path = join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(12).toString('hex')}.partial`)
  try {
    return { path, fd: openSync(path, 'wx', 0o600) }
  } catch (error) {
    throw new AppError('export_failed', `Cannot write ${file} (${error instanceof Error ? error.message : String(error)}).`)
  }
}

/**
 * Removes what a writer that was killed (kill -9, a power cut) left in `file`'s folder: its temporary
 * files (and the journal SQLite kept beside one), named with that writer's process id, once no process
 * of that id runs. A live writer's (another window, another CLI) is left alone.
 */
function removeStalePartials(file: string): void {
  const folder = dirname(file)
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return
  }
  for (const name of names) {
    const pid = Number(/^\..+\.(\d+)-[0-9a-f]+\.partial(?:-journal|-wal|-shm)?$/.exec(name)?.[1])
    if (!Number.isInteger(pid) || pid === process.pid || processRunning(pid)) continue
    rmSync(join(folder, name), { force: true })
  }
}

/**
 * Runs `write` on the descriptor of a fresh temporary file, then renames it to `file`. On any
 * failure (or cancel) the temporary file is removed and `file` is left as it was; an error that is
 * not already an AppError or a cancel becomes `export_failed` naming the file.
 */
export async function writeFileSafely<T>(file: string, write: (fd: number) => Promise<T> | T, signal?: AbortSignal): Promise<T> {
  const temp = createTempFile(file)
  let open = true
  try {
    const result = await write(temp.fd)
    closeSync(temp.fd)
    open = false
    renameSync(temp.path, file)
    return result
  } catch (error) {
    if (open) closeSync(temp.fd)
    rmSync(temp.path, { force: true })
    if (error instanceof AppError || signal?.aborted) throw error
    throw new AppError('export_failed', `Cannot write ${file} (${error instanceof Error ? error.message : String(error)}).`)
  }
}
