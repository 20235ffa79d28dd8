// Profiles from the command line: add one with a key the provider checks, list them, remove one with its records.
import { parseArgs } from 'node:util'
import { completeRemoval } from '../../main/profiles/removal'
import { RECON_PROFILE_TABLES } from '../../main/reconcile/sessions'
import { apiKeyFromEnv, COMMON, openData, say, UsageError } from '../common'
import { readSecret } from '../prompt'

export async function profileCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    options: { db: COMMON.db, json: COMMON.json, 'base-url': COMMON['base-url'] },
    allowPositionals: true,
    strict: true
  })
  const data = openData(values.db, action === 'add' ? 'fills' : 'reads')
  try {
    switch (action) {
      case 'add': {
        const name = positionals.join(' ').trim()
        if (!name) throw new UsageError('profile add needs a NAME')
        if (!values['base-url']) throw new UsageError('profile add needs --base-url URL (it ends in /v1)')
        const key = apiKeyFromEnv() ?? (await readSecret(`API secret key for "${name}": `))
        const profile = await data.profiles.add({ name, baseUrl: values['base-url'], key })
        data.log.info(`cli: added profile "${profile.name}" (${profile.mode}, ${profile.baseUrl})`)
        process.stdout.write(
          values.json
            ? `${JSON.stringify(profile)}\n`
            : `Added "${profile.name}" (${profile.mode.toUpperCase()}, ${profile.baseUrl}); its key is in the system keychain.\n`
        )
        return 0
      }
      case 'list': {
        const list = data.profiles.list()
        if (values.json) process.stdout.write(`${JSON.stringify(list)}\n`)
        else
          for (const p of list)
            say(
              `${p.name.padEnd(28)} ${p.mode.toUpperCase().padEnd(5)} ${p.baseUrl ?? '(built-in Sandbox)'}  last sync: ${p.lastSyncedAt ?? 'never'}\n`
            )
        return 0
      }
      case 'remove': {
        const name = positionals.join(' ').trim()
        if (!name) throw new UsageError('profile remove needs a NAME')
        const removed = await data.profiles.beginRemoval(name)
        await completeRemoval(data.profiles, data.db, removed.id, { domainTables: RECON_PROFILE_TABLES })
        data.log.info(`cli: removed profile "${removed.name}" with its cached records and key`)
        say(`Removed "${removed.name}", its cached records and its key.\n`)
        return 0
      }
      default:
        throw new UsageError(`profile needs add, list or remove (got "${action ?? ''}")`)
    }
  } finally {
    await data.close()
  }
}
