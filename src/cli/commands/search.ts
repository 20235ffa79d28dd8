// Search and export from the command line: the cache offline, as a table, JSON or an Excel-safe CSV of exactly what is filtered.
import { parseArgs } from 'node:util'
import { exportCsv } from '../../main/export/export'
import { search } from '../../main/search/search'
import { toMajorString } from '../../shared/money'
import { formatInZone } from '../../shared/time'
import { SEARCH_RESOURCES, SEARCH_SORTS, type SearchQuery, type SearchResource, type SearchSort } from '../../shared/search'
import { chooseProfile, COMMON, FILTER_OPTIONS, openData, outputPath, PLAIN_NOTE, positiveInt, say, UsageError } from '../common'

function queryFrom(values: Record<string, unknown>, resource: string | undefined, text: string[]): SearchQuery {
  const chosen = (resource ?? 'payments') as SearchResource
  if (!SEARCH_RESOURCES.includes(chosen))
    throw new UsageError(`--resource must be one of ${SEARCH_RESOURCES.join(', ')} (got "${resource}")`)
  const filters: Record<string, string> = {}
  for (const pair of (values['filter'] as string[] | undefined) ?? []) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new UsageError(`--filter needs KEY=VALUE (got "${pair}")`)
    filters[pair.slice(0, at).trim()] = pair.slice(at + 1).trim()
  }
  const pick = (name: string): string | undefined => (values[name] as string | undefined) ?? filters[name]
  const known = new Set(['status', 'channel', 'currency', 'min', 'max', 'from', 'to', 'sort', 'text'])
  for (const name of Object.keys(filters))
    if (!known.has(name)) throw new UsageError(`unknown filter "${name}" (use ${[...known].join(', ')})`)
  const sort = pick('sort')
  if (sort !== undefined && !(SEARCH_SORTS as readonly string[]).includes(sort))
    throw new UsageError(`--sort must be one of ${SEARCH_SORTS.join(', ')}`)
  const words = [...text, ...(filters['text'] ? [filters['text']] : [])].join(' ')
  const query: SearchQuery = { resource: chosen }
  if (words.trim()) query.text = words
  for (const [key, name] of [
    ['status', 'status'],
    ['channel', 'channel'],
    ['currency', 'currency'],
    ['minAmount', 'min'],
    ['maxAmount', 'max'],
    ['from', 'from'],
    ['to', 'to']
  ] as const) {
    const value = pick(name)
    if (value !== undefined) query[key] = value
  }
  if (sort) query.sort = sort as SearchSort
  return query
}

function formatAmount(minor: number | null, raw: string | null, currency: string | null): string {
  if (minor !== null && currency) return `${toMajorString(minor, currency)} ${currency}`
  return raw ? `${raw} ${currency ?? ''}`.trim() : ''
}

export async function searchCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...COMMON,
      ...FILTER_OPTIONS,
      resource: { type: 'string' },
      after: { type: 'string' },
      before: { type: 'string' },
      'page-size': { type: 'string' }
    },
    strict: true,
    allowPositionals: true
  })
  const data = openData(values.db, 'reads')
  try {
    const profile = chooseProfile(data, values)
    if (values.after && values.before) throw new UsageError('give --after or --before, not both')
    const query = {
      ...queryFrom(values, values.resource, positionals),
      pageSize: positiveInt('page-size', values['page-size'], 25, 1),
      ...(values.after ? { after: values.after } : {}),
      ...(values.before ? { before: values.before } : {})
    }
    const result = search(data.db, profile.id, query, { timeZone: profile.timeZone })
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ profile: { name: profile.name, mode: profile.mode }, ...result })}\n`)
      return 0
    }
    const total = `${result.total.toLocaleString('en-US')}${result.totalCapped ? '+' : ''}`
    say(
      `${total} ${query.resource} in "${profile.name}" (${profile.mode.toUpperCase()}, times in ${profile.timeZone}); showing ${result.items.length}\n`
    )
    for (const item of result.items) {
      const cells = [
        (formatInZone(item.date, profile.timeZone) ?? '').slice(0, 16).padEnd(16),
        (item.reference ?? item.key).padEnd(22),
        (item.name ?? '').slice(0, 24).padEnd(24),
        formatAmount(item.amountMinor, item.amountRaw, item.currency).padStart(20),
        item.statusRaw
      ]
      say(`${cells.join('  ')}\n`)
    }
    if (result.previousCursor) say(`previous page: --before ${result.previousCursor}\n`)
    if (result.nextCursor) say(`next page: --after ${result.nextCursor}\n`)
    return 0
  } finally {
    await data.close()
  }
}

export async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...COMMON, ...FILTER_OPTIONS, resource: { type: 'string' }, out: { type: 'string' }, plain: { type: 'boolean' } },
    strict: true,
    allowPositionals: true
  })
  if (!values.resource) throw new UsageError(`export needs --resource (${SEARCH_RESOURCES.join(', ')})`)
  if (!values.out) throw new UsageError('export needs --out FILE')
  const out = outputPath('out', values.out)
  const data = openData(values.db, 'reads')
  try {
    const profile = chooseProfile(data, values)
    const result = await exportCsv({ file: data.file }, profile, queryFrom(values, values.resource, positionals), out, {
      style: values.plain ? 'plain' : 'excel'
    })
    process.stdout.write(
      values.json
        ? `${JSON.stringify(result)}\n`
        : `Wrote ${result.rows.toLocaleString('en-US')} ${values.resource} of "${profile.name}" (${profile.mode.toUpperCase()}) to ${result.file}${values.plain ? PLAIN_NOTE : ''}\n`
    )
    return 0
  } finally {
    await data.close()
  }
}
