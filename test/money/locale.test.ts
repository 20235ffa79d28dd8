// Days, times and counts as the user writes them: en-NG and en-GH write 31/10/2026, ISO is left as it is, a locale the runtime does not know is ISO, and a sentence's lone days and timestamps change while file names, references and everything else stay byte for byte.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  countText,
  dayPattern,
  dayText,
  environmentLocale,
  inLocale,
  ISO,
  knownLocale,
  periodText,
  timeText
} from '../../src/shared/locale'
import { propertyRuns } from '../support/property'

describe('the locale', () => {
  it('writes days as the user does: day first in Nigeria and Ghana, month first in the United States, ISO as it is', () => {
    expect(dayText('2026-10-31', 'en-NG')).toBe('31/10/2026')
    expect(dayText('2026-10-01', 'en-GH')).toBe('01/10/2026')
    expect(dayText('2026-10-31', 'en-US')).toBe('10/31/2026')
    expect(dayText('2026-10-31', ISO)).toBe('2026-10-31')
    expect(dayText('not a day', 'en-NG')).toBe('not a day')
    expect(periodText('2026-10-01', '2026-10-31', 'en-NG')).toBe('01/10/2026 to 31/10/2026')
    expect(timeText('2026-11-28T04:12:48.766Z', 'en-NG', 'Africa/Lagos')).toBe('28/11/2026, 05:12 (Africa/Lagos)')
    expect(timeText('2026-11-28T04:12:48.766Z', ISO, 'Africa/Accra')).toBe('2026-11-28 04:12 (Africa/Accra)')
    expect(countText(1_234_567, 'en-NG')).toBe('1,234,567')
    // The date pickers write days the same way.
    expect(dayPattern('en-NG')).toBe('dd/MM/yyyy')
    expect(dayPattern('en-US')).toBe('MM/dd/yyyy')
    expect(dayPattern('en-ZA')).toBe('yyyy/MM/dd')
    expect(dayPattern(ISO)).toBe('yyyy-MM-dd')
  })

  it('takes the locale the environment names, and ISO where it names none or one not known', () => {
    expect(environmentLocale({ LANG: 'en_NG.UTF-8' })).toBe('en-NG')
    expect(environmentLocale({ LANG: 'en_US.UTF-8', LC_TIME: 'en_GH.UTF-8' })).toBe('en-GH')
    expect(environmentLocale({ LC_ALL: 'en_GB', LANG: 'en_US.UTF-8' })).toBe('en-GB')
    expect(environmentLocale({ LANG: 'C.UTF-8' })).toBe(ISO)
    expect(environmentLocale({ LANG: 'POSIX' })).toBe(ISO)
    expect(environmentLocale({})).toBe(ISO)
    expect(knownLocale('iso')).toBe(ISO)
    expect(knownLocale('not a locale!')).toBe(ISO)
    expect(knownLocale('en-NG')).toBe('en-NG')
  })

  it('changes only the lone days and timestamps of a sentence, in order, leaving file names, references and the rest byte for byte', () => {
    const day = fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10))
    const moment = fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString())
    const piece = fc.oneof(
      day.map((d) => ({ text: d, kind: 'day' as const })),
      moment.map((t) => ({ text: t, kind: 'time' as const })),
      day.map((d) => ({ text: `stmt-${d}.csv`, kind: 'kept' as const })),
      day.map((d) => ({ text: `${d}.csv`, kind: 'kept' as const })),
      day.map((d) => ({ text: `REF${d}X`, kind: 'kept' as const })),
      day.map((d) => ({ text: `${d}/2`, kind: 'kept' as const })),
      fc
        .constantFrom('to', 'the period', 'NGN 1,234.50', 'line 14 of oct.csv', '(', ')', ';', 'closed')
        .map((w) => ({ text: w, kind: 'kept' as const }))
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.constantFrom('en-NG', 'en-GH', 'en-US', 'en-ZA'), (pieces, locale) => {
        const text = pieces.map((p) => p.text).join(' ')
        const expected = pieces
          .map((p) => (p.kind === 'day' ? dayText(p.text, locale) : p.kind === 'time' ? timeText(p.text, locale, 'Africa/Lagos') : p.text))
          .join(' ')
        expect(inLocale(text, locale, 'Africa/Lagos')).toBe(expected)
        expect(inLocale(text, ISO, 'Africa/Lagos')).toBe(text)
      }),
      propertyRuns(300)
    )
  })
})
