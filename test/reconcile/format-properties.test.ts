// Every format, read back line for line: random statements written by the Sandbox's own writers in all eight formats come back as the same lines; mutated (stray "<", '"', "&", commas, cut short or after a line, closing tags lost, a currency or a credit/debit mark changed), a file is refused in words, or reads back the same lines, or names every line it could not read — never fewer lines from a statement it calls complete.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../src/main/errors'
import type { ParsedStatement } from '../../src/main/reconcile/import/parsed-statement'
import { parseStatementFile } from '../../src/main/reconcile/import/read-file'
import { sampleStatementFile } from '../../src/sandbox/statement-formats'
import { writtenStatement } from '../../src/sandbox/statement'
import { SAMPLE_FORMATS, type SampleFormat } from '../../src/shared/reconcile'
import { propertyRuns } from '../support/property'

const NARRATION_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop0123456789 &<>"\',.-/éñÜ'.split('')

const line = fc.record({
  reference: fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Z]{3}-\d{4,7}$/)),
  narration: fc
    .array(fc.constantFrom(...NARRATION_CHARS), { minLength: 3, maxLength: 40 })
    .map((cs) => `X${cs.join('')}`.replace(/\s+/g, ' ').trim()),
  amountMinor: fc.oneof(fc.integer({ min: 1, max: 2_000_000_000 }), fc.integer({ min: -2_000_000_000, max: -1 }))
})

const statement = fc.record({
  day: fc.integer({ min: 1, max: 28 }).map((d) => `2026-10-${String(d).padStart(2, '0')}`),
  lines: fc.array(line, { minLength: 1, maxLength: 25 }),
  opening: fc.integer({ min: -1_000_000_00, max: 1_000_000_000_00 })
})

type Statement = typeof statement extends fc.Arbitrary<infer T> ? T : never

/** The file the Sandbox writes for a statement in a format. */
function written(
  s: Statement,
  format: SampleFormat
): { bytes: Buffer; name: string; entries: { day: string; amountMinor: number; reference: string }[] } {
  const sample = { ...writtenStatement(s.day, s.lines, s.opening), differences: [], netOfFees: true as const }
  const file = sampleStatementFile(sample, format)
  return { bytes: file.bytes, name: file.name, entries: sample.entries }
}

/** What a user answers when asked: QIF states no currency, and dates such as 01/10/2026 read both ways (the Sandbox's CSV writes day first, its QIF month first). */
const read = (bytes: Uint8Array, name: string): Promise<ParsedStatement[]> =>
  parseStatementFile(
    bytes,
    name,
    name.endsWith('.qif') ? { defaultCurrency: 'NGN', dateOrder: 'mdy' } : name.endsWith('.csv') ? { dateOrder: 'dmy' } : {}
  )

/** Formats whose statements state both an opening and a closing balance (OFX states no opening, QIF no closing). */
const PROVED = new Set<SampleFormat>(['csv', 'xlsx', 'xls', 'pdf', 'mt940', 'camt053'])

describe('every format, read back', () => {
  it.each(SAMPLE_FORMATS.map((f) => [f]))(
    'gives back the lines a random statement was written with, as %s',
    async (format) => {
      await fc.assert(
        fc.asyncProperty(statement, async (s) => {
          const file = written(s, format)
          const [parsed, ...rest] = await read(file.bytes, file.name)
          expect(rest).toEqual([])
          expect(parsed?.problems).toEqual([])
          expect(parsed?.rows.all().map((r) => [r.date, r.amountMinor])).toEqual(file.entries.map((e) => [e.day, e.amountMinor]))
          expect(parsed?.rows.all().every((r) => r.currency === 'NGN')).toBe(true)
          if (format !== 'pdf' && format !== 'mt940')
            expect(parsed?.rows.all().map((r) => r.reference ?? '')).toEqual(file.entries.map((e) => e.reference))
          expect(parsed?.proof?.complete).toBe(PROVED.has(format))
        }),
        propertyRuns(format === 'pdf' ? 15 : 40)
      )
    },
    120_000
  )
})

/** One change to a file's text, as a hostile or broken export makes it. */
const MUTATIONS: Record<string, (text: string, at: number) => string | null> = {
  'a stray "<"': (t, at) => `${t.slice(0, at)}<${t.slice(at)}`,
  'a stray "<" and letters': (t, at) => `${t.slice(0, at)}<2h ${t.slice(at)}`,
  "a stray '\"'": (t, at) => `${t.slice(0, at)}"${t.slice(at)}`,
  'a stray "&"': (t, at) => `${t.slice(0, at)}&${t.slice(at)}`,
  'a stray comma': (t, at) => `${t.slice(0, at)},${t.slice(at)}`,
  'cut short': (t, at) => t.slice(0, at),
  // Cut at a line's end, the rest of the file gone: its lines still chain, so only a stated closing balance can tell.
  'cut after a line': (t, at) => {
    const i = t.indexOf('\n', at)
    return i < 0 ? null : t.slice(0, i + 1)
  },
  'a closing tag lost': (t, at) => {
    const m = /<\/(?:STMTTRN|Ntry)>/g
    m.lastIndex = at
    const found = m.exec(t) ?? /<\/(?:STMTTRN|Ntry)>/.exec(t)
    return found ? t.slice(0, found.index) + t.slice(found.index + found[0].length) : null
  },
  'a currency changed': (t, at) => {
    const i = t.indexOf('NGN', at) >= 0 ? t.indexOf('NGN', at) : t.indexOf('NGN')
    return i < 0 ? null : `${t.slice(0, i)}USD${t.slice(i + 3)}`
  },
  'a credit/debit mark lost': (t, at) => {
    const camt = /<CdtDbtInd>(CRDT|DBIT)<\/CdtDbtInd>/g
    camt.lastIndex = at
    const c = camt.exec(t) ?? /<CdtDbtInd>(CRDT|DBIT)<\/CdtDbtInd>/.exec(t)
    if (c) return t.slice(0, c.index) + t.slice(c.index + c[0].length)
    const marks = [...t.matchAll(/^:61:\d{10}[CD]/gm)]
    const m = marks.find((x) => x.index >= at) ?? marks[0]
    // ":61:" and its two dates are 14 characters; the mark C or D follows.
    return m ? t.slice(0, m.index + 14) + t.slice(m.index + 15) : null
  },
  'a record separator lost': (t, at) => {
    const i = t.indexOf('\r\n^\r\n', at) >= 0 ? t.indexOf('\r\n^\r\n', at) : t.indexOf('\r\n^\r\n')
    return i < 0 ? null : t.slice(0, i) + t.slice(i + 3)
  }
}

/** Codes a file refused as a whole is given: each says what is wrong in words. */
const REFUSALS = new Set([
  'malformed_xml',
  'truncated_file',
  'no_statement',
  'malformed_csv',
  'not_a_statement',
  'empty_file',
  'currency_conflict'
])

describe('every text format, mutated', () => {
  it.each((['csv', 'mt940', 'camt053', 'ofx', 'qif'] as const).map((f) => [f]))(
    'refuses %s in words, or reads the same lines, or names every line it could not read; never fewer lines from a statement it calls complete',
    async (format) => {
      await fc.assert(
        fc.asyncProperty(
          statement,
          fc.constantFrom(...Object.keys(MUTATIONS)),
          // Where in the file, uniformly (fast-check's doubles crowd near 0, which put nearly every change in the header block).
          fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((n) => n / 1_000_000),
          async (s, kind, where) => {
            const file = written(s, format)
            const text = file.bytes.toString('latin1')
            const mutated = (MUTATIONS[kind] as (t: string, at: number) => string | null)(text, Math.floor(where * text.length))
            if (mutated === null || mutated === text) return
            let statements: ParsedStatement[]
            try {
              statements = await read(Buffer.from(mutated, 'latin1'), file.name)
            } catch (error) {
              expect(error, kind).toBeInstanceOf(AppError)
              expect(REFUSALS.has((error as AppError).code), `${kind}: ${(error as AppError).code}`).toBe(true)
              expect((error as AppError).message.length).toBeGreaterThan(20)
              return
            }
            const n = file.entries.length
            for (const parsed of statements) {
              const accounted = parsed.rows.length + new Set(parsed.problems.map((p) => p.line)).size
              // A statement it calls complete holds exactly the lines it was written with.
              if (parsed.proof?.complete)
                expect(
                  parsed.rows.all().map((r) => [r.date, r.amountMinor]),
                  kind
                ).toEqual(file.entries.map((e) => [e.day, e.amountMinor]))
              // Short of lines, and not cut short: what it could not read is named.
              if (!kind.startsWith('cut ') && accounted < n && parsed.questions.length === 0)
                expect(parsed.problems.length, kind).toBeGreaterThan(0)
            }
          }
        ),
        propertyRuns(150)
      )
    },
    120_000
  )
})
