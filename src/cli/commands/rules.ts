// ledgerline rules: a profile's rules, listed in the order they are tried, added from a JSON file (a change of one is its next version), tried on a session and the last closed ones before they are enabled, enabled and disabled.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { aliasInWords, percent, PROPOSAL_GATE, type Evaluation, type ProposedRule, type SuggestionFigures } from '../../shared/learning'
import { previewHeadline, ruleInWords, VERDICT_WORDS, type Rule, type RulePreview, type StoredRule } from '../../shared/rules'
import { evaluateLearning } from '../../main/reconcile/learning/evaluate'
import { proposedRules } from '../../main/reconcile/learning/proposals'
import { StderrProgress } from '../progress'
import { osUserName } from '../../main/reconcile/audit'
import { ReconService } from '../../main/reconcile/service'
import { previewOnSessions } from '../../main/reconcile/rules/handlers'
import { ruleFromJson, RuleStore } from '../../main/reconcile/rules/store'
import { profileRuleBook, ruleNamed, type RuleBook } from '../../main/reconcile/rules/book'
import { readServerUrl, withServer } from '../../main/team/connection'
import { TeamReplicas, workspaceKey } from '../../main/team/replicas'
import { workspaceRuleBook } from '../../main/team/rules'
import type { Profile } from '../../main/profiles/service'
import { chooseProfile, COMMON, openData, say, UsageError, type Opened } from '../common'

export async function rulesCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      ...COMMON,
      file: { type: 'string' },
      session: { type: 'string' },
      to: { type: 'string' },
      proposed: { type: 'string' },
      server: { type: 'string' }
    },
    strict: true,
    allowPositionals: true
  })
  const changes = sub === 'add' || sub === 'enable' || sub === 'disable' || sub === 'move' || sub === 'remove'
  if (sub !== 'list' && sub !== 'preview' && sub !== 'proposed' && sub !== 'evaluate' && !changes)
    throw new UsageError(
      `rules takes list, proposed, evaluate, add --file RULE.json (or --proposed NAME), preview --session ID --file RULE.json, enable NAME, disable NAME, move NAME --to N or remove NAME`
    )
  const data = openData(values.db, changes ? 'fills' : 'reads')
  try {
    const recon = new ReconService(data.db)
    const { book, profile, session } = ruleBookOf(
      data,
      recon,
      values,
      sub === 'proposed' || sub === 'evaluate' || sub === 'preview' || values.proposed !== undefined
    )
    // Where a change was made, said when it is the workspace's.
    const where = values.server ? ` in ${book.owner}` : ''
    const out = (json: unknown, words: string): void => {
      if (values.json) process.stdout.write(`${JSON.stringify(json)}\n`)
      else say(words)
    }
    switch (sub) {
      case 'list': {
        const rules = await book.list()
        out(
          rules,
          rules.length === 0 ? `${book.owner} has no rules yet (ledgerline rules add --file RULE.json).\n` : listed(book.owner, rules)
        )
        return 0
      }
      case 'evaluate': {
        const { id } = needProfile(profile)
        const rules = await book.list()
        const progress = new StderrProgress('rules evaluate')
        progress.phase('replaying the closed sessions')
        const evaluation = evaluateLearning(data.db, recon, id, rules, (done, total) => progress.tick('sessions', done, total))
        progress.end()
        out(evaluation, evaluationText(book.owner, evaluation))
        return 0
      }
      case 'proposed': {
        const proposals = proposedRules(data.db, needProfile(profile).id, await book.list())
        out(proposals, proposedText(book.owner, proposals))
        return 0
      }
      case 'add': {
        const rule = values.proposed
          ? proposalNamed(proposedRules(data.db, needProfile(profile).id, []), values.proposed)
          : ruleFromJson(readRuleFile(values.file), values.file as string)
        const { stored, change } = await book.save(rule)
        out(
          { change, ...stored },
          `${change === 'unchanged' ? 'Unchanged' : change === 'added' ? 'Added' : 'Saved as a new version'}: ${rule.name} (version ${stored.version}, ${stored.enabled ? 'enabled' : 'not enabled: try it with rules preview, then rules enable'})${where}.\n  ${ruleInWords(rule)}\n`
        )
        return 0
      }
      case 'preview': {
        if (!session) throw new UsageError('rules preview needs --session ID (ledgerline sessions lists them)')
        const rule = values.file
          ? ruleFromJson(readRuleFile(values.file), values.file)
          : ruleNamed(await book.list(), positionals[0] ?? '', book.owner).rule
        // The session named, and the profile's last closed sessions: how the rule would have done on what was decided by hand.
        const preview = previewOnSessions(recon, rule, session, needProfile(profile).id)
        out(preview, previewText(preview))
        return 0
      }
      case 'remove': {
        const name = positionals[0]
        if (!name) throw new UsageError("rules remove needs the rule's name (ledgerline rules list shows them)")
        const rules = await book.remove(name)
        out(
          rules,
          `Removed ${name}: it decides nothing from the next run on; what it decided stays, and its versions are kept.\n${rules.length > 0 ? listed(book.owner, rules) : ''}`
        )
        return 0
      }
      case 'move': {
        const name = positionals[0]
        const to = Number(values.to)
        if (!name || !Number.isInteger(to) || to < 1)
          throw new UsageError("rules move takes the rule's name and --to N, its place in the order (1: tried first)")
        const rules = await book.move(name, to)
        out(rules, listed(book.owner, rules))
        return 0
      }
      default: {
        const name = positionals[0]
        if (!name) throw new UsageError(`rules ${sub} needs the rule's name (ledgerline rules list shows them)`)
        const stored = await book.setEnabled(name, sub === 'enable')
        out(stored, `${stored.rule.name} (version ${stored.version}) is ${stored.enabled ? 'enabled' : 'disabled'}${where}.\n`)
        return 0
      }
    }
  } finally {
    await data.close()
  }
}

/**
 * Whose rules a command is about: with --server, the team workspace's (a shared session named by its
 * shared id, replayed in this cache); else the profile's own, refused for the profile a workspace's
 * sessions are replayed under (the workspace's rules decide those). The profile whose sessions are
 * read, when the command reads any.
 */
function ruleBookOf(
  data: Opened,
  recon: ReconService,
  values: {
    server?: string | undefined
    session?: string | undefined
    profile?: string | undefined
    'base-url'?: string | undefined
    mode?: string | undefined
  },
  readsSessions: boolean
): { book: RuleBook; profile: Profile | null; session: string | null } {
  if (values.server) {
    const target = readServerUrl(values.server)
    const workspace = workspaceKey(target)
    const book = workspaceRuleBook((work) => withServer(target, work), workspace)
    const replica = values.session ? new TeamReplicas(data.db, target).get(values.session) : undefined
    if (values.session && !replica)
      throw new UsageError(
        `no shared session ${values.session} of ${workspace} is on this computer (team sync --session ${values.session} opens it)`
      )
    if (replica) return { book, profile: data.profiles.get(recon.session(replica.sessionId).profileId), session: replica.sessionId }
    if (!readsSessions) return { book, profile: null, session: null }
    const replayed = data.profiles.list().filter((p) => p.workspace === workspace)
    const profile = values.profile ? data.profiles.get(values.profile) : replayed.length === 1 ? replayed[0] : undefined
    if (!profile)
      throw new UsageError(
        replayed.length === 0
          ? `no session of ${workspace} is on this computer yet (team sync opens them)`
          : `choose the workspace's test or live sessions with --profile (${replayed.map((p) => `"${p.name}"`).join(', ')})`
      )
    return { book, profile, session: null }
  }
  const session = values.session ? recon.session(values.session) : null
  const profile = session ? data.profiles.get(session.profileId) : chooseProfile(data, values)
  if (profile.workspace !== null)
    throw new UsageError(
      `${profile.name} holds the sessions of the team workspace ${profile.workspace}, which its rules decide: add --server postgres://LOGIN@${profile.workspace}`
    )
  return {
    book: profileRuleBook(new RuleStore(data.db, { user: osUserName() }), profile.id, profile.name),
    profile,
    session: session?.id ?? null
  }
}

function needProfile(profile: Profile | null): Profile {
  if (!profile) throw new UsageError('this needs the sessions of a profile')
  return profile
}

function evaluationText(profile: string, e: Evaluation): string {
  if (e.sessions.length === 0) return `${profile} has no closed sessions yet: rules evaluate replays closed months.\n`
  const row = (label: string, f: SuggestionFigures): string =>
    `  ${label.padEnd(18)}${`${percent(f.precision)} (${f.right} of ${f.suggested} suggested)`.padEnd(30)}${percent(f.recall)} (${f.right} of ${f.confirmed} confirmed)`
  const lines = [
    `${profile}: ${e.sessions.length} closed session(s) replayed in order, each matched again before its own decisions, learning only from those before it.`,
    `Counted: the pairs you confirmed (accepted or matched by hand); lines the engine paired itself by reference are not. Precision: of the suggestions made, how many you confirmed; recall: of the pairs you confirmed, how many were suggested.`,
    `Suggestions         ${'precision'.padEnd(30)}recall`,
    row('without learning', e.without),
    row('with learning', e.with)
  ]
  for (const s of e.sessions)
    lines.push(
      `  ${s.name} (${s.from} to ${s.to}), ${s.with.confirmed} confirmed: without learning ${s.without.right} right of ${s.without.suggested} suggested, with ${s.with.right} of ${s.with.suggested}`
    )
  if (e.rules.length === 0) lines.push('No rule is enabled.')
  else
    lines.push(
      'Enabled rules, tried on each session as you left it (a rule proposed from these sessions, or written for them, is measured on what it came from: its figures say it agrees with them, not how it will do on months to come):'
    )
  for (const r of e.rules)
    lines.push(
      `  ${r.name} (version ${r.version}): acts on ${r.acted}, ${r.asDecided} as you decided them, ${r.otherwise} otherwise, ${r.undecided} not decided; precision ${percent(r.precision)}, recall ${percent(r.recall)} (of ${r.decidedSo} decided its way)`
    )
  return `${lines.join('\n')}\n`
}

/** The proposed rule of that name, or a usage error that lists the proposals. */
function proposalNamed(proposals: readonly ProposedRule[], name: string): Rule {
  const found = proposals.find((p) => p.rule.name === name)
  if (!found)
    throw new UsageError(
      `no rule named ${name} is proposed${proposals.length > 0 ? `; proposed now: ${proposals.map((p) => p.rule.name).join(', ')}` : ': nothing is proposed yet (ledgerline rules proposed says when a rule is)'}`
    )
  return found.rule
}

function proposedText(profile: string, proposals: readonly ProposedRule[]): string {
  if (proposals.length === 0)
    return `Nothing to propose for ${profile} yet: a rule is proposed once you confirmed a line's wording with the same customer ${PROPOSAL_GATE.minConfirmed} times, at least ${PROPOSAL_GATE.minShare * 100}% of the times you decided it, with at most ${PROPOSAL_GATE.maxRejected} rejection.\n`
  const lines = [`Rules proposed from what you confirmed in ${profile}'s sessions (none is applied until you add and enable it):`]
  for (const p of proposals) {
    lines.push(`  ${p.rule.name}${p.saved ? ' (saved already)' : ''}`)
    lines.push(`     ${aliasInWords(p.evidence)}: ${p.gate}.`)
    lines.push(`     ${ruleInWords(p.rule)}`)
  }
  lines.push('Add one with ledgerline rules add --proposed NAME, try it with rules preview, then rules enable NAME.')
  return `${lines.join('\n')}\n`
}

/** The rule file's JSON, or a usage error that says what is wrong with the file, and where (line and column). */
function readRuleFile(file: string | undefined): unknown {
  if (!file) throw new UsageError('give the rule with --file RULE.json')
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'it may not be read' : e instanceof Error ? e.message : String(e)}`
    )
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    const at = /position (\d+)/.exec(message)
    const where = at ? text.slice(0, Number(at[1])).split('\n') : null
    throw new UsageError(
      `${file} is not JSON${where ? ` (line ${where.length}, column ${(where.at(-1)?.length ?? 0) + 1})` : ''}: ${message.replace(/ in JSON at position \d+.*$/, '')}`
    )
  }
}

function listed(profile: string, rules: readonly StoredRule[]): string {
  const lines = [`Rules of ${profile}, in the order they are tried (the first that holds for a line decides it):`]
  for (const r of rules) {
    lines.push(`  ${r.position}. ${r.rule.name} (version ${r.version}, ${r.enabled ? 'enabled' : 'not enabled'})`)
    if (r.rule.description) lines.push(`     ${r.rule.description}`)
    lines.push(`     ${ruleInWords(r.rule)}`)
  }
  return `${lines.join('\n')}\n`
}

function previewText(p: RulePreview): string {
  const lines = [`${previewHeadline(p)}.`]
  for (const s of p.sessions) {
    lines.push(
      `  ${s.name} (${s.from} to ${s.to}, ${s.closed ? 'closed' : 'open'}): ${s.items} item(s), ${s.asDecided} as you decided them, ${s.otherwise} otherwise, ${s.undecided} not decided yet${s.leftOpen > 0 ? `, ${s.leftOpen} left open` : ''}`
    )
    for (const e of s.examples) lines.push(`    ${e.itemKey}  ${VERDICT_WORDS[e.verdict].padEnd(10)}  ${e.line}: ${e.now}`)
  }
  return `${lines.join('\n')}\n`
}
