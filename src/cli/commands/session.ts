// CLI commands that finish a reconciliation session: decide about one item, accept every suggestion above a score, close and reopen.
import { createInterface } from 'node:readline/promises'
import { parseArgs } from 'node:util'
import { ReconService } from '../../main/reconcile/service'
import { summaryOf } from '../../main/reconcile/totals'
import { moneyText } from '../../shared/money'
import { accountInWords, chainKey, chainLines } from '../../shared/periods'
import { shortItemKey, type Decision, type ReconItem, type SessionAccount, type SessionInfo } from '../../shared/reconcile'
import { cliLocale, COMMON, itemKeyGiven, openData, outputPath, say, type Opened, UsageError } from '../common'
import { Interrupt } from '../interrupt'
import { StderrProgress } from '../progress'

const SESSION_OPTIONS = { db: COMMON.db, json: COMMON.json, session: { type: 'string' } } as const

/** The session a command names with --session, in a cache that exists. */
function openSession(values: { db?: string | undefined; session?: string | undefined }): {
  data: Opened
  service: ReconService
  session: SessionInfo
} {
  if (!values.session) throw new UsageError('give the session with --session ID (the reconcile command prints it)')
  const data = openData(values.db, 'reads')
  try {
    const service = new ReconService(data.db)
    return { data, service, session: service.session(values.session) }
  } catch (error) {
    void data.close()
    throw error
  }
}

/** What is left to review, in a line. */
function left(service: ReconService, sessionId: string): string {
  const totals = service.totals(sessionId)
  return `${totals.exceptions.toLocaleString('en-US')} item(s) left to review${totals.notReadOpen > 0 ? `, ${totals.notReadOpen} line(s) not read` : ''}`
}

/** An item in a line, as the report shows it: its short key, outcome, records by reference, lines by number, amounts with currency. */
function describeItem(item: ReconItem): string {
  const records = item.provider.map((p) => `${p.reference ?? p.serviceReference ?? 'no reference'} ${moneyText(p.amountMinor, p.currency)}`)
  const lines = item.file.map((f) => `line ${f.line} ${moneyText(f.amountMinor, f.currency)}`)
  return `${item.outcome}: ${[...records, ...lines].join(', ') || 'nothing'}${item.resolved ? ' (resolved)' : ''}${item.note ? `; note: ${item.note}` : ''} [item ${shortItemKey(item.key)}]`
}

/** What a decision left: the items its records and lines are in now (each with its short key), and what is left to review. */
function printDecided(service: ReconService, sessionId: string, what: string, items: ReconItem[], json: boolean): void {
  if (json) {
    const shown = items.map((i) => ({ ...i, shortKey: shortItemKey(i.key) }))
    process.stdout.write(
      `${JSON.stringify({ item: shown.length === 1 ? shown[0] : null, items: shown, exceptions: service.totals(sessionId).exceptions })}\n`
    )
  } else say(`${what} recorded. ${items.map(describeItem).join('; ') || 'nothing'}. ${left(service, sessionId)}.\n`)
}

const ACTIONS = ['accept', 'reject', 'resolve', 'unresolve', 'note', 'exclude', 'fix', 'unmatch'] as const

/** ledgerline decide --session ID --item KEY accept|reject|resolve|unresolve|unmatch|note TEXT|exclude REASON|fix DAY AMOUNT CURRENCY [--reason CODE] */
export async function decideCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...SESSION_OPTIONS, item: { type: 'string' }, reason: { type: 'string' } },
    strict: true,
    allowPositionals: true
  })
  const [action, ...words] = positionals
  if (!values.item) throw new UsageError("give the item with --item KEY (the report's item_key column)")
  if (action === undefined && values.reason === undefined)
    throw new UsageError(`decide needs one of ${ACTIONS.join(', ')} (note and exclude take a text), or --reason CODE`)
  if (action !== undefined && !(ACTIONS as readonly string[]).includes(action))
    throw new UsageError(`decide needs one of ${ACTIONS.join(', ')} (got "${action}")`)
  const text = words.join(' ').trim()
  if (action === 'fix' && (words.length !== 3 || !/^\d{4}-\d{2}-\d{2}$/.test(words[0] as string)))
    throw new UsageError(
      'decide fix reads a line not read by hand: give its DAY (YYYY-MM-DD), signed AMOUNT and CURRENCY, e.g. fix 2026-10-30 -52.50 NGN'
    )
  if ((action === 'note' || action === 'exclude') && text === '')
    throw new UsageError(`decide ${action} needs a text: ${action === 'note' ? 'the note' : 'why the line is left out'}`)
  if (action !== 'note' && action !== 'exclude' && action !== 'fix' && text !== '')
    throw new UsageError(`decide ${action} takes no text (got "${text}")`)
  const { data, service, session } = openSession(values)
  try {
    const itemKey = itemKeyGiven(values.item)
    if (!service.item(session.id, itemKey))
      throw new UsageError(`no item "${itemKey}" in session ${session.id}'s last run (copy it from the report's item_key column)`)
    const decisions: Decision[] = []
    if (action === 'accept' || action === 'reject' || action === 'unmatch') decisions.push({ kind: action, itemKey })
    if (action === 'resolve' || action === 'unresolve') decisions.push({ kind: 'resolve', itemKey, resolved: action === 'resolve' })
    if (action === 'note') decisions.push({ kind: 'note', itemKey, note: text })
    if (action === 'exclude') decisions.push({ kind: 'exclude', itemKey, reason: text })
    if (action === 'fix')
      decisions.push({
        kind: 'fix',
        itemKey,
        date: words[0] as string,
        amount: words[1] as string,
        currency: (words[2] as string).toUpperCase()
      })
    if (values.reason !== undefined) decisions.push({ kind: 'reason', itemKey, code: values.reason })
    const before = service.item(session.id, itemKey) as ReconItem
    let item: ReconItem | null = null
    for (const decision of decisions) item = (await service.decide(session.id, decision)).item
    const now = item ?? service.item(session.id, before.key)
    // A decision that ran the session again (reject, unmatch) leaves its records and lines in other items: those are said.
    const holding = now
      ? [now]
      : service.itemsHolding(
          session.id,
          before.provider.map((p) => p.id),
          before.file.map((f) => f.id)
        )
    printDecided(service, session.id, decisions.map((d) => d.kind).join(' and '), holding, values.json === true)
    return 0
  } finally {
    await data.close()
  }
}

/** ledgerline accept-all --session ID --min-score N [--yes] */
export async function acceptAllCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...SESSION_OPTIONS, 'min-score': { type: 'string' }, yes: { type: 'boolean' }, 'no-groups': { type: 'boolean' } },
    strict: true,
    allowPositionals: false
  })
  // Group suggestions (one line the exact sum of several records, or the reverse) have no score: taken unless --no-groups.
  const groups = values['no-groups'] !== true
  const raw = values['min-score']
  if (raw === undefined || !/^\d+(\.\d+)?$/.test(raw))
    throw new UsageError(`accept-all needs --min-score N, a number such as 8 (got "${raw ?? ''}")`)
  const minScore = Number(raw)
  const { data, service, session } = openSession(values)
  try {
    const preview = service.previewAcceptAll(session.id, {}, minScore, groups)
    const totals = preview.totals.map((t) => `${moneyText(t.fileMinor, t.currency)} in the file`).join(' and ')
    if (preview.count === 0) {
      if (values.json)
        process.stdout.write(`${JSON.stringify({ accepted: 0, totals: [], exceptions: service.totals(session.id).exceptions })}\n`)
      else say(`No undecided suggestion scores ${minScore} or more${groups ? ', and no group is suggested' : ''}.\n`)
      return 0
    }
    const singles = preview.count - preview.groups
    const what = `${[
      singles > 0 ? `${singles.toLocaleString('en-US')} suggestion(s) scoring ${minScore} or more` : null,
      preview.groups > 0 ? `${preview.groups.toLocaleString('en-US')} group suggestion(s)` : null
    ]
      .filter(Boolean)
      .join(' and ')}, totalling ${totals}`
    if (!values.yes) {
      if (!process.stdin.isTTY) throw new UsageError(`accept-all would accept ${what}; add --yes to accept them without being asked`)
      const prompt = createInterface({ input: process.stdin, output: process.stderr })
      const answer = await prompt.question(`Accept ${what}? Each is kept as its own decision. [y/N] `)
      prompt.close()
      if (!/^y(es)?$/i.test(answer.trim())) {
        say('Nothing accepted.\n')
        return 1
      }
    }
    const { accepted } = await service.acceptAll(session.id, {}, minScore, groups)
    if (values.json)
      process.stdout.write(`${JSON.stringify({ accepted, totals: preview.totals, exceptions: service.totals(session.id).exceptions })}\n`)
    else say(`Accepted ${accepted.toLocaleString('en-US')} suggestion(s), totalling ${totals}. ${left(service, session.id)}.\n`)
    return 0
  } finally {
    await data.close()
  }
}

/** ledgerline close --session ID [--evidence PACK.zip] */
export async function closeCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...SESSION_OPTIONS, evidence: { type: 'string' } },
    strict: true,
    allowPositionals: false
  })
  // The pack's path is checked before the session is closed.
  const pack = values.evidence === undefined ? undefined : outputPath('evidence', values.evidence)
  const { data, service, session } = openSession(values)
  const interrupt = new Interrupt('close')
  let kept = `"${session.name}" is still open; nothing was written`
  try {
    const profile = data.profiles.get(session.profileId)
    let closed = session
    // Already closed (a close that stopped before its pack was written, or a pack wanted again): the pack of that close.
    if (session.closedAt && pack)
      say(`"${session.name}" was already closed (${session.closedAt} by ${session.closedBy}); nothing changed.\n`)
    else {
      const binding = new StderrProgress('close')
      binding.phase("binding the evidence pack's files to the close")
      closed = await service.close(
        session.id,
        { name: profile.name, mode: profile.mode },
        { progress: (file, done, total) => binding.tick(file, done, total), locale: cliLocale(), signal: interrupt.signal }
      )
      binding.end()
      say(`Closed "${closed.name}" (${closed.closedAt} by ${closed.closedBy}): read-only until reopened. ${left(service, session.id)}.\n`)
    }
    if (pack) {
      kept = `"${closed.name}" is closed (${closed.closedAt} by ${closed.closedBy}); no evidence pack was written (ledgerline close --session ${closed.id} --evidence FILE writes it)`
      const progress = new StderrProgress('close')
      progress.phase(`writing the evidence pack ${pack}`)
      const written = await service.evidencePack(
        closed.id,
        pack,
        { name: profile.name, mode: profile.mode },
        (file, done, total) => progress.tick(file, done, total),
        interrupt.signal
      )
      progress.end()
      say(
        `Evidence pack: ${written.file} (${written.files} files). Its audit trail ends in ${written.chainHead}: keep this value with your sign-off; ledgerline audit verify --evidence checks the pack.\n`
      )
    }
    return 0
  } catch (error) {
    if (interrupt.stoppedBy(error)) return interrupt.cancelled(kept)
    throw error
  } finally {
    await interrupt.end()
    await data.close()
  }
}

/** ledgerline reopen --session ID --reason TEXT */
export async function reopenCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...SESSION_OPTIONS, reason: { type: 'string' } }, strict: true, allowPositionals: false })
  if (!values.reason?.trim())
    throw new UsageError('reopen needs --reason TEXT: why the closed session is opened again (it is kept in its history)')
  const { data, service, session } = openSession(values)
  try {
    const reopened = service.reopen(session.id, values.reason.trim())
    say(`Reopened "${reopened.name}"; the reason is in its history.\n`)
    return 0
  } finally {
    await data.close()
  }
}

/** ledgerline undo --session ID [--json]: takes back the last decision not yet taken back (it stays in the trail). */
export async function undoCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: SESSION_OPTIONS, strict: true, allowPositionals: false })
  const { data, service, session } = openSession(values)
  try {
    const { item } = await service.decide(session.id, { kind: 'undo' })
    // The undo, and the decision it took back: the items that decision's records and lines are in now.
    const events = service.events(session.id)
    const undo = [...events].reverse().find((e) => e.kind === 'undo')
    const undone = undo?.kind === 'undo' ? events.find((e) => e.seq === undo.payload.undoes) : undefined
    const members = undone && 'providerIds' in undone.payload ? undone.payload : null
    const byKey = undo?.kind === 'undo' && undo.payload.itemKey ? service.item(session.id, undo.payload.itemKey) : null
    const holding = item ? [item] : members ? service.itemsHolding(session.id, members.providerIds, members.fileIds) : byKey ? [byKey] : []
    printDecided(service, session.id, `undo of event ${undone?.seq ?? '?'} (${undone?.kind ?? 'decision'})`, holding, values.json === true)
    return 0
  } finally {
    await data.close()
  }
}

/** ledgerline run --session ID [--json]: the session matched again as it stands (new records synced, rules enabled since), its decisions kept; what the enabled rules decided in this run is said. */
export async function runCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: SESSION_OPTIONS, strict: true, allowPositionals: false })
  const { data, service, session } = openSession(values)
  try {
    const before = service.events(session.id).length
    const outcome = await service.run(session.id)
    const ruled = service
      .events(session.id)
      .slice(before)
      .flatMap((e) => (e.kind === 'rule' ? [e.payload] : []))
    const byRule = new Map<string, number>()
    for (const r of ruled)
      byRule.set(`rule "${r.name}" (version ${r.version})`, (byRule.get(`rule "${r.name}" (version ${r.version})`) ?? 0) + 1)
    if (values.json) process.stdout.write(`${JSON.stringify({ counts: outcome.counts, items: outcome.items, ruled })}\n`)
    else
      say(
        `Matched "${session.name}" again: ${outcome.items.toLocaleString('en-US')} item(s). ${
          byRule.size === 0
            ? 'No rule decided anything new.'
            : `Decided by the enabled rules: ${[...byRule].map(([rule, n]) => `${n} by ${rule}`).join(', ')}.`
        } ${left(service, session.id)}.\n`
      )
    return 0
  } finally {
    await data.close()
  }
}

/** ledgerline match --session ID --item KEY --item KEY… [--json]: the records and lines of these items matched by hand, one to one, one to many or many to one. */
export async function matchCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...SESSION_OPTIONS, item: { type: 'string', multiple: true } },
    strict: true,
    allowPositionals: false
  })
  const keys = (values.item ?? []).map(itemKeyGiven)
  if (keys.length < 2)
    throw new UsageError('match needs two or more --item KEY: the items whose records and lines are one (keys from the report)')
  const { data, service, session } = openSession(values)
  try {
    const items = keys.map((key) => {
      const found = service.item(session.id, key)
      if (!found) throw new UsageError(`no item "${key}" in session ${session.id}'s last run (copy it from the report's item_key column)`)
      return found
    })
    const providerIds = [...new Set(items.flatMap((i) => i.provider.map((p) => p.id)))]
    const fileIds = [...new Set(items.flatMap((i) => i.file.map((f) => f.id)))]
    await service.decide(session.id, { kind: 'match', providerIds, fileIds })
    printDecided(service, session.id, 'match', service.itemsHolding(session.id, providerIds, fileIds), values.json === true)
    return 0
  } finally {
    await data.close()
  }
}

/** What a session's state is, in a word: not run yet, open, closed, or shared (a replay of a team workspace's session). */
function stateOf(s: SessionInfo): string {
  if (s.team?.replay) return 'shared'
  if (s.closedAt) return 'closed'
  return s.lastRunAt ? 'open' : 'not run'
}

/** Sessions grouped by profile and account (those of no account last), each group's periods in date order. */
function byAccount<T extends { profile: string; account: SessionAccount; from: string; to: string }>(rows: readonly T[]): T[][] {
  const key = (r: T): string => `${r.profile}\u001f${chainKey(r.account) ?? '\uffff'}`
  const groups = new Map<string, T[]>()
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r])
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, group]) => group.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : 1)))
}

/** ledgerline sessions [--profile NAME] [--json]: every session by its account, each account's periods in order with how they chain, and each one's currency, state, counts and verdict. */
export async function sessionsCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { db: COMMON.db, json: COMMON.json, profile: COMMON.profile },
    strict: true,
    allowPositionals: false
  })
  const data = openData(values.db, 'reads')
  try {
    const service = new ReconService(data.db)
    const profiles = values.profile ? [data.profiles.get(values.profile)] : data.profiles.list()
    const rows = profiles.flatMap((profile) =>
      service.sessions(profile.id).map((s) => {
        const summary = s.lastRunAt ? summaryOf(s, { name: profile.name, mode: profile.mode }, service.totals(s.id)) : null
        return {
          id: s.id,
          name: s.name,
          profile: profile.name,
          mode: profile.mode,
          accounts: [...new Set(s.files.map((f) => f.account ?? f.proof?.account).filter((a): a is string => Boolean(a)))],
          currencies: summary?.currencies.map((c) => c.currency) ?? [],
          from: s.from,
          to: s.to,
          state: stateOf(s),
          counts: s.counts,
          toReview: s.toReview,
          verdict: summary?.verdict.headline ?? 'not run yet',
          account: s.account,
          chain: s.chain
        }
      })
    )
    if (values.json) process.stdout.write(`${JSON.stringify(rows)}\n`)
    else if (rows.length === 0) say('No reconciliation session in this cache yet: ledgerline reconcile makes one.\n')
    else
      for (const group of byAccount(rows)) {
        const [first] = group
        if (!first) continue
        say(
          `${first.profile} (${first.mode.toUpperCase()}), ${accountInWords(first.account)}: ${group.length} period${group.length === 1 ? '' : 's'}\n`
        )
        for (const r of group)
          say(
            `  ${r.id}  ${r.name}\n    ${r.from} to ${r.to}${r.currencies.length ? `, ${r.currencies.join(', ')}` : ''}, ${r.state}${r.counts ? `, ${r.counts.matched.toLocaleString('en-US')} matched, ${(r.toReview ?? 0).toLocaleString('en-US')} to review` : ''}\n    ${r.verdict}\n${chainLines(r.account, r.chain, '    ')}`
          )
      }
    return 0
  } finally {
    await data.close()
  }
}
