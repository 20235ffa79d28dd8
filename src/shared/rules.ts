// The rules an accountant writes and reads: what a rule file holds (one check, each problem named by its path), what a rule's conditions mean for a statement line, and the rule in words.
import { z } from 'zod'
import { isKnownCurrency, moneyText, parseMajor } from './money'

/** What a condition can look at: a statement line's words and figures, and the channel of the provider record it is paired with. */
export const RULE_FIELDS = {
  description: "the line's description",
  reference: "the line's reference",
  counterparty: "the line's counterparty",
  amount: "the line's amount",
  currency: "the line's currency",
  day_of_month: "the line's day of the month",
  channel: "the channel of the provider's record"
} as const
export type RuleField = keyof typeof RULE_FIELDS

const TEXT_FIELDS = ['description', 'reference', 'counterparty', 'currency', 'channel'] as const
const TEXT_OPERATORS = ['contains', 'equals', 'starts_with', 'ends_with', 'matches'] as const

/** What a line can be classified as: a reconciling item an accountant knows by name. */
export const CLASSIFY_AS = {
  bank_charge: 'a bank charge',
  levy: 'a levy (EMTL, stamp duty)',
  transfer_between_own_accounts: 'a transfer between own accounts',
  interest: 'interest',
  reversal: 'a reversal',
  other: 'another known reconciling item'
} as const
export type ClassifyAs = keyof typeof CLASSIFY_AS

const NAME = /^[a-z0-9][a-z0-9-]{0,59}$/
const AMOUNT_WORDS =
  'an amount as text in major units with no thousands separator, a debit (money out) negative: "-52.50" for a charge of 52.50, "1000" for a credit'

/** Which operators each field takes, as the check names them. */
const OPERATORS_OF: Record<RuleField, readonly string[]> = {
  description: ['contains', 'equals', 'starts_with', 'ends_with', 'matches'],
  reference: ['contains', 'equals', 'starts_with', 'ends_with', 'matches'],
  counterparty: ['contains', 'equals', 'starts_with', 'ends_with', 'matches'],
  currency: ['contains', 'equals', 'starts_with', 'ends_with', 'matches'],
  channel: ['contains', 'equals', 'starts_with', 'ends_with', 'matches'],
  amount: ['equals', 'at_least', 'at_most', 'between', 'sign'],
  day_of_month: ['equals', 'at_least', 'at_most', 'between']
}
const ACTION_SHAPES =
  '{"type": "classify", "as": "bank_charge", "reasonCode": "bank_charge"}, {"type": "leave_out", "reason": "…"} or {"type": "pair", "with": "customer" or "reference", "pattern": "TRF FROM (.+)"} (or "value": "ade@example.com" in place of the pattern)'

/** The mistakes a person makes in a rule file, each said in words by its place, before the schema's own check (whose words for a union are only "Invalid input"). */
function plainProblems(json: unknown): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return ['the rule: a rule file holds one JSON object with name, description, match, conditions and action']
  const rule = json as Record<string, unknown>
  const problems: string[] = []
  if (!Array.isArray(rule['conditions']) || rule['conditions'].length === 0)
    problems.push('conditions: a rule needs a list of at least one condition, each {"field": …, "operator": …, "value": …}')
  else
    rule['conditions'].forEach((c: unknown, k: number) => {
      const at = `conditions[${k}]`
      if (typeof c !== 'object' || c === null || Array.isArray(c)) {
        problems.push(`${at}: a condition is {"field": …, "operator": …, "value": …}`)
        return
      }
      const cond = c as Record<string, unknown>
      for (const key of Object.keys(cond))
        if (!['field', 'operator', 'value', 'ignoreCase'].includes(key))
          problems.push(`${at}: no key "${key}" (a condition has field, operator, value and ignoreCase)`)
      const field = cond['field']
      if (typeof field !== 'string' || !(field in RULE_FIELDS)) {
        problems.push(`${at}.field: ${JSON.stringify(field) ?? 'missing'} is none of ${Object.keys(RULE_FIELDS).join(', ')}`)
        return
      }
      const operators = OPERATORS_OF[field as RuleField]
      const operator = cond['operator']
      if (typeof operator !== 'string' || !operators.includes(operator)) {
        problems.push(
          `${at}.operator: ${JSON.stringify(operator) ?? 'missing'} does not apply to ${field}; it takes ${operators.join(', ')}`
        )
        return
      }
      const value = cond['value']
      const amount = (v: unknown): boolean => typeof v === 'string' && /^-?\d{1,12}(\.\d{1,4})?$/.test(v)
      const day = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 31
      const said = JSON.stringify(value) ?? 'missing'
      if (operator === 'between') {
        if (!Array.isArray(value) || value.length !== 2)
          problems.push(
            `${at}.value: "between" takes two values, from and to, such as ${field === 'amount' ? '["-60", "-10"]' : '[25, 31]'} (got ${said})`
          )
        else if (!value.every(field === 'amount' ? amount : day))
          problems.push(
            `${at}.value: each of the two is ${field === 'amount' ? AMOUNT_WORDS : 'a day of the month from 1 to 31'} (got ${said})`
          )
      } else if (operator === 'sign') {
        if (value !== 'debit' && value !== 'credit') problems.push(`${at}.value: "sign" takes "debit" or "credit" (got ${said})`)
      } else if (field === 'amount') {
        if (!amount(value)) problems.push(`${at}.value: ${AMOUNT_WORDS} (got ${said})`)
      } else if (field === 'day_of_month') {
        if (!day(value)) problems.push(`${at}.value: a day of the month from 1 to 31 (got ${said})`)
      } else if (typeof value !== 'string' || value.length === 0 || value.length > 200)
        problems.push(`${at}.value: a text of 1 to 200 characters (got ${said})`)
    })
  const action = rule['action']
  if (typeof action !== 'object' || action === null || Array.isArray(action))
    problems.push(`action: missing: what the rule does, one of ${ACTION_SHAPES}`)
  else if (!['classify', 'leave_out', 'pair'].includes(String((action as Record<string, unknown>)['type'])))
    problems.push(
      `action.type: ${JSON.stringify((action as Record<string, unknown>)['type']) ?? 'missing'} is none of classify, leave_out, pair: ${ACTION_SHAPES}`
    )
  else if (
    (action as Record<string, unknown>)['type'] === 'classify' &&
    !(String((action as Record<string, unknown>)['as']) in CLASSIFY_AS)
  )
    problems.push(
      `action.as: ${JSON.stringify((action as Record<string, unknown>)['as']) ?? 'missing'} is none of ${Object.keys(CLASSIFY_AS).join(', ')}`
    )
  return problems
}

const textCondition = z.strictObject({
  field: z.enum(TEXT_FIELDS),
  operator: z.enum(TEXT_OPERATORS),
  value: z.string().min(1).max(200),
  /** Letters of either case match (the default); false compares them as written. */
  ignoreCase: z.boolean().optional()
})
const amountText = z
  .string()
  .max(20)
  .regex(/^-?\d{1,12}(\.\d{1,4})?$/, AMOUNT_WORDS)
const amountCondition = z.union([
  z.strictObject({ field: z.literal('amount'), operator: z.enum(['equals', 'at_least', 'at_most']), value: amountText }),
  z.strictObject({ field: z.literal('amount'), operator: z.literal('between'), value: z.tuple([amountText, amountText]) }),
  z.strictObject({ field: z.literal('amount'), operator: z.literal('sign'), value: z.enum(['debit', 'credit']) })
])
const day = z.number().int().min(1).max(31)
const dayCondition = z.union([
  z.strictObject({ field: z.literal('day_of_month'), operator: z.enum(['equals', 'at_least', 'at_most']), value: day }),
  z.strictObject({ field: z.literal('day_of_month'), operator: z.literal('between'), value: z.tuple([day, day]) })
])
const condition = z.union([textCondition, amountCondition, dayCondition])
export type RuleCondition = z.infer<typeof condition>

const action = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('classify'),
    as: z.enum(Object.keys(CLASSIFY_AS) as [ClassifyAs, ...ClassifyAs[]]),
    reasonCode: z.string().trim().min(1).max(60)
  }),
  z.strictObject({ type: z.literal('leave_out'), reason: z.string().trim().min(1).max(500) }),
  z.strictObject({
    type: z.literal('pair'),
    /** The provider record's field to find the part of the line in. */
    with: z.enum(['reference', 'customer']),
    /** Where the part is: the line's description or reference. */
    from: z.enum(['description', 'reference']).optional(),
    /** A regular expression whose first group (or whole match) is the part. */
    pattern: z.string().min(1).max(200).optional(),
    /** Or the part itself, whatever the line says: a customer's email or account a learned alias names. */
    value: z.string().trim().min(1).max(200).optional()
  })
])
export type RuleAction = z.infer<typeof action>

/** The one check of a rule file. */
export const ruleSchema = z.strictObject({
  name: z.string().max(60).regex(NAME, 'a name of lower-case letters, digits and dashes (up to 60), such as sms-alert-charges'),
  description: z.string().trim().max(500).optional(),
  match: z.enum(['all', 'any']),
  conditions: z.array(condition).min(1).max(20),
  action
})
export type Rule = z.infer<typeof ruleSchema>

/** A rule as a profile keeps it: its place in the order, its version, whether it is applied. */
export interface StoredRule {
  rule: Rule
  position: number
  version: number
  enabled: boolean
  updatedAt: string
  updatedBy: string
}

/** A regular expression of a rule, or the reason it is none (a rule file is the user's: a bad pattern is said, never thrown). */
function patternOf(source: string, flags: string): RegExp | string {
  try {
    return new RegExp(source, flags)
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}

/** A rule file's JSON checked: the rule, or each problem by its path in the file ("conditions[0].value: …"). */
export function checkRule(json: unknown): { ok: true; rule: Rule } | { ok: false; problems: string[] } {
  const plain = plainProblems(json)
  if (plain.length > 0) return { ok: false, problems: plain }
  const parsed = ruleSchema.safeParse(json)
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${pathText(i.path)}: ${i.message}`)
    }
  const problems: string[] = []
  parsed.data.conditions.forEach((c, k) => {
    if (c.operator === 'matches' && typeof c.value === 'string') {
      const re = patternOf(c.value, 'i')
      if (typeof re === 'string') problems.push(`conditions[${k}].value: not a regular expression (${re})`)
    }
    if (c.field === 'currency' && c.operator === 'equals' && typeof c.value === 'string' && !isKnownCurrency(c.value.toUpperCase()))
      problems.push(`conditions[${k}].value: ${c.value} is no ISO 4217 currency`)
    if (c.field === 'amount' && c.operator === 'between' && Number(c.value[0]) > Number(c.value[1]))
      problems.push(`conditions[${k}].value: the range's first amount is above its second`)
    if (c.field === 'day_of_month' && c.operator === 'between' && c.value[0] > c.value[1])
      problems.push(`conditions[${k}].value: the range's first day is after its second`)
  })
  if (parsed.data.action.type === 'pair') {
    const { pattern, value } = parsed.data.action
    if (pattern !== undefined && value !== undefined)
      problems.push('action: a pairing takes either a "pattern" that finds the part in the line, or the part itself as "value", not both')
    if (pattern === undefined && value === undefined)
      problems.push(
        'action: a pairing needs a "pattern" that finds the part in the line ("TRF FROM (.+)") or the part itself as "value" ("ade@example.com")'
      )
    const re = pattern === undefined ? null : patternOf(pattern, 'i')
    if (typeof re === 'string') problems.push(`action.pattern: not a regular expression (${re})`)
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rule: parsed.data }
}

function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the rule'
  return path.map((p, k) => (typeof p === 'number' ? `[${p}]` : `${k > 0 ? '.' : ''}${String(p)}`)).join('')
}

/** What a rule's conditions are tried on: one statement line, and the channel of the record it is paired with (if any). */
export interface RuleSubject {
  description: string | null
  reference: string | null
  counterparty: string | null
  amountMinor: number
  currency: string
  /** YYYY-MM-DD */
  date: string
  channel: string | null
}

/** How the rule's act compares with an item as it stands. */
export type RuleVerdict = 'as_decided' | 'otherwise' | 'undecided'

/** One item the rule would act on, in words. */
export interface RulePreviewItem {
  itemKey: string
  /** left_open: a pairing that finds no single free record, so the line would stay open. */
  verdict: RuleVerdict | 'left_open'
  /** The line, as the accountant finds it: its day, amount and words. */
  line: string
  /** What the item is now, and what the rule would make it. */
  now: string
}

export interface RulePreviewSession {
  sessionId: string
  name: string
  from: string
  to: string
  closed: boolean
  items: number
  asDecided: number
  otherwise: number
  undecided: number
  /** Open lines a pairing rule holds for but would leave open (no single free record has the part). */
  leftOpen: number
  /** The items it would decide otherwise first, then those it would leave open, the undecided ones, then the rest: at most 20. */
  examples: RulePreviewItem[]
}

export interface RulePreview {
  rule: string
  sessions: RulePreviewSession[]
  items: number
  asDecided: number
  otherwise: number
  undecided: number
  leftOpen: number
}

/** Whether one condition holds for a line. */
export function conditionHolds(c: RuleCondition, line: RuleSubject): boolean {
  if (c.field === 'amount') {
    const at = (major: string): number => parseMajor(major, line.currency)
    switch (c.operator) {
      case 'sign':
        return c.value === 'debit' ? line.amountMinor < 0 : line.amountMinor > 0
      case 'between':
        return line.amountMinor >= at(c.value[0]) && line.amountMinor <= at(c.value[1])
      case 'equals':
        return line.amountMinor === at(c.value)
      case 'at_least':
        return line.amountMinor >= at(c.value)
      case 'at_most':
        return line.amountMinor <= at(c.value)
    }
  }
  if (c.field === 'day_of_month') {
    const d = Number(line.date.slice(8, 10))
    switch (c.operator) {
      case 'between':
        return d >= c.value[0] && d <= c.value[1]
      case 'equals':
        return d === c.value
      case 'at_least':
        return d >= c.value
      case 'at_most':
        return d <= c.value
    }
  }
  const raw = line[c.field]
  if (raw === null) return false
  const fold = c.ignoreCase !== false
  const text = fold ? raw.toLowerCase() : raw
  const value = fold ? c.value.toLowerCase() : c.value
  switch (c.operator) {
    case 'contains':
      return text.includes(value)
    case 'equals':
      return text.trim() === value.trim()
    case 'starts_with':
      return text.trimStart().startsWith(value)
    case 'ends_with':
      return text.trimEnd().endsWith(value)
    case 'matches': {
      const re = patternOf(c.value, fold ? 'i' : '')
      return typeof re !== 'string' && re.test(raw)
    }
  }
}

/** Whether a rule's conditions hold for a line: all of them, or any, as the rule says. */
export function ruleHolds(rule: Rule, line: RuleSubject): boolean {
  return rule.match === 'all' ? rule.conditions.every((c) => conditionHolds(c, line)) : rule.conditions.some((c) => conditionHolds(c, line))
}

/** The part of a line a pairing rule looks for at the provider, or null where its pattern finds none. */
export function pairingPart(action: Extract<RuleAction, { type: 'pair' }>, line: RuleSubject): string | null {
  if (action.value !== undefined) return action.value
  if (action.pattern === undefined) return null
  const text = line[action.from ?? 'description']
  if (text === null) return null
  const re = patternOf(action.pattern, 'i')
  if (typeof re === 'string') return null
  const found = re.exec(text)
  const part = (found?.[1] ?? found?.[0])?.trim()
  return part ? part : null
}

const OPERATOR_WORDS: Record<string, string> = {
  contains: 'contains',
  equals: 'is',
  starts_with: 'starts with',
  ends_with: 'ends with',
  matches: 'matches the pattern',
  between: 'is between',
  at_least: 'is at least',
  at_most: 'is at most',
  sign: 'is a'
}

/** A condition in words: "the line's description contains "SMS ALERT"". */
export function conditionInWords(c: RuleCondition, currency?: string): string {
  const value = (): string => {
    if (c.field === 'amount' && c.operator !== 'sign') {
      const money = (v: string): string => (currency && isKnownCurrency(currency) ? moneyText(parseMajor(v, currency), currency) : v)
      return Array.isArray(c.value) ? `${money(c.value[0])} and ${money(c.value[1])}` : money(c.value as string)
    }
    if (Array.isArray(c.value)) return `${c.value[0]} and ${c.value[1]}`
    return typeof c.value === 'string' && c.field !== 'amount' ? `"${c.value}"` : String(c.value)
  }
  return `${RULE_FIELDS[c.field]} ${OPERATOR_WORDS[c.operator]} ${value()}`
}

/** What a rule does, in words. */
export function actionInWords(a: RuleAction): string {
  switch (a.type) {
    case 'classify':
      return `classify the line as ${CLASSIFY_AS[a.as]} (reason code ${a.reasonCode})`
    case 'leave_out':
      return `leave the line out: ${a.reason}`
    case 'pair':
      return a.value !== undefined
        ? `pair the line with the provider's record whose ${a.with} is "${a.value}"`
        : `pair the line with the provider's record whose ${a.with} is the part of its ${a.from ?? 'description'} that /${a.pattern ?? ''}/ finds`
  }
}

/** A rule in one sentence: "When the line's description contains "SMS ALERT": classify the line as a bank charge (reason code bank_charge)." */
export function ruleInWords(rule: Rule): string {
  const joined = rule.conditions.map((c) => conditionInWords(c)).join(rule.match === 'all' ? ' and ' : ' or ')
  return `When ${joined}: ${actionInWords(rule.action)}.`
}

/**
 * The provider's records a pairing rule can find, by the field it names: a reference equal to the part
 * (letters of either case), or a customer whose name, email or account holds the part as whole words.
 */
export class RecordFinder {
  private readonly index = new Map<string, string[]>()
  private readonly texts = new Map<string, string>()
  private readonly records = new Map<
    string,
    { id: string; reference: string | null; serviceReference?: string | null; name: string | null }
  >()

  /** What find answered, by part (emptied by each add). */
  private readonly found = new Map<string, string[]>()

  constructor(private readonly by: 'reference' | 'customer') {}

  add(record: { id: string; reference: string | null; serviceReference?: string | null; name: string | null }): void {
    this.records.set(record.id, record)
    const value = foundBy(record, this.by)
    if (!value) return
    this.texts.set(record.id, ` ${value.split(/\s+/).join(' ')} `)
    const keys = this.by === 'reference' ? [value] : new Set(value.split(/\s+/))
    // Pushed, not copied: a name many customers share (a first name) would copy its list once per record.
    for (const key of keys) {
      const list = this.index.get(key)
      if (list) list.push(record.id)
      else this.index.set(key, [record.id])
    }
    this.found.clear()
  }

  /** A record added, by its id. */
  record(id: string): { id: string; reference: string | null; serviceReference?: string | null; name: string | null } | undefined {
    return this.records.get(id)
  }

  /** The records the part names, each once, in the order added (the same part asked again answered from the last time). */
  find(part: string): readonly string[] {
    const wanted = partRead(part, this.by)
    if (this.by === 'reference') return this.index.get(wanted) ?? []
    const known = this.found.get(wanted)
    if (known) return known
    const phrase = ` ${wanted} `
    const found = (this.index.get(wanted.split(' ')[0] as string) ?? []).filter((id) => this.texts.get(id)?.includes(phrase))
    this.found.set(wanted, found)
    return found
  }
}

/** What RecordFinder finds a record by: its reference, or its customer's name; in lower case (undefined: neither). */
function foundBy(record: { reference: string | null; name: string | null }, by: 'reference' | 'customer'): string | undefined {
  return (by === 'reference' ? record.reference : record.name)?.trim().toLowerCase()
}

/** A part as RecordFinder reads it: in lower case, a customer's words one space apart. */
export function partRead(part: string, by: 'reference' | 'customer'): string {
  const wanted = part.trim().toLowerCase()
  return by === 'reference' ? wanted : wanted.split(/\s+/).join(' ')
}

/**
 * Every part (as partRead reads it) RecordFinder finds the record by: its reference; each run of whole words of its
 * customer's name (a name of n words is named by n(n+1)/2 runs).
 */
export function partsNaming(record: { reference: string | null; name: string | null }, by: 'reference' | 'customer'): string[] {
  const value = foundBy(record, by)
  if (!value) return []
  if (by === 'reference') return [value]
  const words = value.split(/\s+/)
  const runs = new Set<string>()
  for (let from = 0; from < words.length; from++)
    for (let to = from + 1; to <= words.length; to++) runs.add(words.slice(from, to).join(' '))
  return [...runs]
}

const MONTHS =
  /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december)$/i

/**
 * A rule drafted from one line, for the user to read, change, try and save: its description's steady
 * words (no digits, no month names: what recurs month after month), its sign, and as action a
 * classification by what the words read as (else "other"), named after those words.
 */
export function ruleDraftFromLine(line: RuleSubject, readsAs: 'bank_charge' | 'levy' | null): Rule {
  // The longest run of steady words (the first, of at most 4), as the line writes it: a condition that holds for the line itself.
  const text = line.description ?? line.counterparty ?? line.reference ?? ''
  const tokens = [...text.matchAll(/\S+/g)].map((m) => ({ word: m[0], from: m.index, to: m.index + m[0].length }))
  const steadyWord = (w: string): boolean => !/\d/.test(w) && !MONTHS.test(w.replace(/[^a-z]/gi, ''))
  let best: { from: number; to: number; count: number } | null = null
  for (let i = 0; i < tokens.length;) {
    if (!steadyWord((tokens[i] as (typeof tokens)[number]).word)) {
      i++
      continue
    }
    let j = i
    while (j + 1 < tokens.length && j - i < 3 && steadyWord((tokens[j + 1] as (typeof tokens)[number]).word)) j++
    const run = { from: (tokens[i] as (typeof tokens)[number]).from, to: (tokens[j] as (typeof tokens)[number]).to, count: j - i + 1 }
    if (!best || run.count > best.count) best = run
    i = j + 1
  }
  const words = best ? text.slice(best.from, Math.min(best.to, best.from + 200)) : ''
  const as: ClassifyAs = readsAs ?? 'other'
  const slug = words
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
  const conditions: RuleCondition[] = [
    ...(words
      ? [
          {
            field: line.description ? ('description' as const) : line.counterparty ? ('counterparty' as const) : ('reference' as const),
            operator: 'contains' as const,
            value: words
          }
        ]
      : []),
    { field: 'amount', operator: 'sign', value: line.amountMinor < 0 ? 'debit' : 'credit' }
  ]
  return {
    name: /^[a-z0-9]/.test(slug) ? slug : `rule-${slug || 'from-a-line'}`.replace(/-+$/, ''),
    description: `Drafted from the line of ${line.date}${words ? ` "${words}"` : ''}`,
    match: 'all',
    conditions,
    action: { type: 'classify', as, reasonCode: as }
  }
}

/** The preview's headline: "would act on 132 items: 130 as you decided them, 2 otherwise, 0 not decided yet". */
export function previewHeadline(p: RulePreview): string {
  const n = (k: number): string => k.toLocaleString('en-US')
  return `"${p.rule}" would act on ${n(p.items)} ${p.items === 1 ? 'item' : 'items'}: ${n(p.asDecided)} as you decided them, ${n(p.otherwise)} otherwise, ${n(p.undecided)} not decided yet${p.leftOpen > 0 ? `; it would leave ${n(p.leftOpen)} open line(s) open (no single free record has the part it finds)` : ''}`
}

/** How each kind of preview example is said, the same width each (the CLI lines them up). */
export const VERDICT_WORDS: Record<RulePreviewItem['verdict'], string> = {
  as_decided: 'as decided',
  otherwise: 'OTHERWISE',
  undecided: 'undecided',
  left_open: 'left open'
}
