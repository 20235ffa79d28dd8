// The building blocks every domain's part of the IPC contract uses, and the merge that refuses a name defined twice.
import { z } from 'zod'
import type { CallErrorCode } from '../error-codes'

/** One call: its argument schema (checked by main's gate, and again by the host) and its result type. */
export interface CallSpec<A extends z.ZodType, R> {
  args: A
  /** Phantom marker carrying the result type; never read at run time. */
  result: R
}

/** `call<Result>()(argumentSchema)`: the result type is named, the argument type comes from the schema. */
export function call<R>() {
  return <A extends z.ZodType>(args: A): CallSpec<A, R> => ({ args, result: undefined as R })
}

/** No argument: the renderer passes nothing (undefined) and anything else is rejected. */
export const noArgs = z.undefined()
export const id = z.string().min(1).max(200)
/** Bounded text for events main checks before sending: messages, names, paths. */
export const text = (max: number) => z.string().max(max)

/** A failed call's code as the host says it: one of the domains' typed codes, or the provider's own (checked as short text). */
export const callErrorCode = z.custom<CallErrorCode>((v) => typeof v === 'string' && v !== '' && v.length <= 80, 'an error code')

type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never

/**
 * Merges the domains' parts into one table. A name two parts both define is a programming error
 * caught when the module loads, never a silent override.
 */
export function mergeParts<P extends Readonly<Record<string, unknown>>>(
  what: 'call' | 'event',
  parts: readonly P[]
): UnionToIntersection<P> {
  const merged: Record<string, unknown> = {}
  for (const part of parts) {
    for (const [name, spec] of Object.entries(part)) {
      if (Object.hasOwn(merged, name)) throw new Error(`The IPC contract defines the ${what} "${name}" twice`)
      merged[name] = spec
    }
  }
  return Object.freeze(merged) as UnionToIntersection<P>
}
