// Sync from the command line: pull the provider's records into the cache with progress, and follow or unfollow bulk files, transfers and plans.
import { parseArgs } from 'node:util'
import { CacheStore } from '../../main/cache/store'
import { describeSync } from '../../main/log'
import { completeRemoval } from '../../main/profiles/removal'
import { RECON_PROFILE_TABLES } from '../../main/reconcile/sessions'
import type { Profile } from '../../main/profiles/service'
import { runSync } from '../../main/sync/engine'
import { FOLLOW_KIND_NAMES } from '../../shared/ipc/sync'
import { SYNC_RESOURCES, type SyncProgress, type SyncResource } from '../../shared/sync'
import { apiKeyFromEnv, chooseProfile, cliClients, COMMON, openData, say, UsageError } from '../common'

function describeProgress(p: SyncProgress): string {
  const total = p.total === null ? '' : ` / ${p.total.toLocaleString('en-US')}`
  const eta = p.etaSeconds === null ? '' : `, ETA ${Math.ceil(p.etaSeconds)} s`
  return `${p.resource} (${p.phase}): ${p.done.toLocaleString('en-US')}${total} (${Math.round(p.rate).toLocaleString('en-US')}/s${eta})`
}

export async function syncCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...COMMON,
      resources: { type: 'string' },
      'track-bulk-file': { type: 'string', multiple: true },
      'track-transfer': { type: 'string', multiple: true },
      'track-plan': { type: 'string', multiple: true },
      'no-pacing': { type: 'boolean' }
    },
    strict: true,
    allowPositionals: false
  })
  if (!values.profile && !values['base-url']) throw new UsageError('sync needs --profile NAME or --base-url URL')
  const resources = values.resources ? values.resources.split(',').map((r) => r.trim()) : [...SYNC_RESOURCES]
  for (const r of resources)
    if (!(SYNC_RESOURCES as readonly string[]).includes(r))
      throw new UsageError(`unknown resource "${r}" (use ${SYNC_RESOURCES.join(', ')})`)
  const data = openData(values.db, 'fills')
  // --no-pacing: for servers without rate limits, such as a local Sandbox started with --no-rate-limits.
  const clients = cliClients(values['no-pacing'] ? { pacing: false } : {})
  const controller = new AbortController()
  const onSignal = (): void => controller.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    let profile: Profile
    let key: string | undefined
    /** A profile made by --base-url for this run alone (none was there before): removed again when the key is refused. */
    let madeForThisRun = false
    if (values.profile) profile = data.profiles.get(values.profile)
    else {
      key = apiKeyFromEnv()
      if (!key) throw new UsageError('with --base-url, put the key in LEDGERLINE_API_KEY')
      const before = new Set(data.profiles.list().map((p) => p.id))
      profile = data.profiles.adHoc(values['base-url'] as string, key)
      madeForThisRun = !before.has(profile.id)
    }
    const store = new CacheStore(data.db)
    for (const id of values['track-bulk-file'] ?? []) store.track(profile.id, 'bulk_file', id)
    for (const ref of values['track-transfer'] ?? []) store.track(profile.id, 'transfer', ref)
    for (const id of values['track-plan'] ?? []) store.track(profile.id, 'plan', id)
    const client = await clients.for(profile, key)
    let lastLine = 0
    const summary = await runSync({
      client,
      store,
      profileId: profile.id,
      timeZone: profile.timeZone,
      resources: resources as SyncResource[],
      signal: controller.signal,
      onProgress: (p) => {
        const now = Date.now()
        if (now - lastLine < 1000 && p.phase !== 'done') return
        // A resource that ended with nothing written has nothing to report (the summary lists it).
        if (p.phase === 'done' && p.done === 0) return
        lastLine = now
        process.stderr.write(`${describeProgress(p)}\n`)
      }
    })
    if (summary.keyRefused) {
      const refused = summary.keyRefused
      data.log.error(`cli: sync of "${profile.name}": the key was refused: ${refused.code}`)
      if (madeForThisRun) {
        await data.profiles.beginRemoval(profile.id)
        await completeRemoval(data.profiles, data.db, profile.id, { domainTables: RECON_PROFILE_TABLES })
      }
      process.stderr.write(
        `ledgerline: the server refused the key of ${values.profile ? `profile "${profile.name}"` : `${profile.baseUrl} (from LEDGERLINE_API_KEY)`} (${refused.code}); nothing was synced after that. Check the key${values.profile ? ` (ledgerline profile add to store a new one)` : ''}.\n`
      )
      return 2
    }
    data.log.info(`cli: ${describeSync(profile.name, summary)}`)
    for (const [resource, outcome] of Object.entries(summary.resources))
      if (outcome.error) data.log.error(`cli: sync ${resource}: ${outcome.error.code}: ${outcome.error.message}`)
    if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`)
    else {
      say(`Synced "${profile.name}" (${profile.mode.toUpperCase()}) in ${(summary.durationMs / 1000).toFixed(1)} s\n`)
      for (const [resource, outcome] of Object.entries(summary.resources)) {
        const count = `${store.count(profile.id, resource as never).toLocaleString('en-US')} cached`
        const cost = `${outcome.requests.toLocaleString('en-US')} request${outcome.requests === 1 ? '' : 's'}${outcome.skipped ? `, ${outcome.skipped.toLocaleString('en-US')} skipped` : ''}`
        const failedWhole = outcome.error && !outcome.failedItems ? ` — ${outcome.error.code}: ${outcome.error.message}` : ''
        say(
          `  ${resource.padEnd(17)} ${outcome.ok ? 'ok    ' : 'FAILED'} ${outcome.written.toLocaleString('en-US')} fetched, ${count}, ${cost}${failedWhole}\n`
        )
        for (const item of outcome.failedItems ?? []) say(`      ${item.code}: ${item.message}\n`)
      }
    }
    const failed = Object.entries(summary.resources).filter(([, o]) => !o.ok)
    if (summary.cancelled) {
      process.stderr.write('ledgerline: sync cancelled; everything fetched so far is saved and the next sync resumes there\n')
      return 130
    }
    if (failed.length > 0) {
      const [resource, outcome] = failed[0] as [string, { error?: { code: string; message: string } }]
      process.stderr.write(
        `ledgerline: ${failed.length} resource(s) failed; first: ${resource}: ${outcome.error?.code}: ${outcome.error?.message}\n`
      )
      return 1
    }
    return 0
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await clients.close()
    await data.close()
  }
}

export async function followingCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...COMMON }, strict: true, allowPositionals: false })
  const data = openData(values.db, 'reads')
  try {
    const profile = chooseProfile(data, values)
    const store = new CacheStore(data.db)
    const items = store.followedItems(profile.id)
    if (values.json) process.stdout.write(`${JSON.stringify(items)}\n`)
    else if (items.length === 0)
      say(`"${profile.name}" follows nothing; add items with sync --track-bulk-file, --track-transfer or --track-plan.\n`)
    else {
      for (const item of items) {
        const error = item.lastError ? ` — last problem: ${item.lastError}` : ''
        say(`${item.kind.padEnd(10)} ${item.value}  last synced ${item.lastSyncedAt ?? 'never'}${error}\n`)
      }
    }
    return 0
  } finally {
    await data.close()
  }
}

export async function unfollowCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...COMMON,
      'bulk-file': { type: 'string', multiple: true },
      transfer: { type: 'string', multiple: true },
      plan: { type: 'string', multiple: true }
    },
    strict: true,
    allowPositionals: false
  })
  const wanted = [
    ...(values['bulk-file'] ?? []).map((value) => ({ kind: 'bulk_file' as const, value })),
    ...(values.transfer ?? []).map((value) => ({ kind: 'transfer' as const, value })),
    ...(values.plan ?? []).map((value) => ({ kind: 'plan' as const, value }))
  ]
  if (wanted.length === 0) throw new UsageError('unfollow needs --bulk-file ID, --transfer REF or --plan ID')
  const data = openData(values.db, 'reads')
  try {
    const profile = chooseProfile(data, values)
    const store = new CacheStore(data.db)
    const missing = wanted.filter((w) => !store.untrack(profile.id, w.kind, w.value))
    for (const w of wanted) if (!missing.includes(w)) say(`No longer following ${FOLLOW_KIND_NAMES[w.kind]} ${w.value}.\n`)
    if (missing.length > 0) {
      process.stderr.write(
        `ledgerline: not followed by "${profile.name}": ${missing.map((m) => `${FOLLOW_KIND_NAMES[m.kind]} ${m.value}`).join(', ')}\n`
      )
      return 1
    }
    return 0
  } finally {
    await data.close()
  }
}
