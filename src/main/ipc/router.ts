// The host's dispatcher: checks each call against the contract again and runs the one domain handler that serves it.
import type { z } from 'zod'
import type { CallName, Calls, CallValue } from '../../shared/ipc/contract'
import { BoundaryErrorCode, fail, ok, type CallResult } from '../../shared/ipc/result'
import { AppError } from '../errors'
import { redactSecrets } from '../redact'

export type Handler<N extends CallName> = (arg: z.output<Calls[N]['args']>) => Promise<CallValue<N>> | CallValue<N>

/** A domain's handlers for the app's contract: a subset of it, keyed by full call name. */
export type HandlerMap = { [N in CallName]?: Handler<N> }

/** What the dispatcher and the gate need of a contract: an argument schema per call name. */
export type ContractShape = Readonly<Record<string, { readonly args: z.ZodType }>>

type AnyHandler = (arg: never) => unknown

export interface DispatcherOptions {
  /** The calls served; the app passes `calls` from the shared contract. */
  contract: ContractShape
  /** Handler maps, one per domain; together they must cover the contract exactly once. */
  domains: ReadonlyArray<Readonly<Record<string, AnyHandler | undefined>>>
  /** Receives unexpected failures, already redacted; never shown to the renderer. */
  logError: (message: string) => void
}

export interface Dispatcher {
  dispatch(name: unknown, arg: unknown): Promise<CallResult<unknown>>
}

const MAX_ISSUES_REPORTED = 20

function describeIssues(issues: readonly z.core.$ZodIssue[]): { message: string; details: { path: string; message: string }[] } {
  const details = issues.slice(0, MAX_ISSUES_REPORTED).map((issue) => ({
    path: issue.path.length === 0 ? '(argument)' : issue.path.map(String).join('.'),
    message: issue.message
  }))
  const first = details[0]
  return { message: first ? `Invalid argument at ${first.path}: ${first.message}` : 'Invalid argument.', details }
}

/**
 * Checks a call's name and argument against the contract: the parsed argument, or the coded
 * refusal (UNKNOWN_CALL, INVALID_ARGUMENT). Main's gate and the host's dispatcher both use it.
 */
export function checkCall(
  contract: ContractShape,
  name: unknown,
  arg: unknown
): { ok: true; name: string; arg: unknown } | { ok: false; result: CallResult<never> } {
  const spec = typeof name === 'string' && Object.hasOwn(contract, name) ? contract[name] : undefined
  if (typeof name !== 'string' || !spec) {
    const shown = typeof name === 'string' ? `"${name.slice(0, 80)}"` : `a ${typeof name}`
    return { ok: false, result: fail(BoundaryErrorCode.UnknownCall, `Unknown call ${shown}.`) }
  }
  const parsed = spec.args.safeParse(arg)
  if (!parsed.success) {
    const { message, details } = describeIssues(parsed.error.issues)
    return { ok: false, result: fail(BoundaryErrorCode.InvalidArgument, `${name}: ${message}`, details) }
  }
  return { ok: true, name, arg: parsed.data }
}

/** Merges domain handler maps, refusing a name handled twice, a name outside the contract, or a call left unhandled. */
function mergeDomains(contract: ContractShape, domains: DispatcherOptions['domains']): Map<string, (arg: unknown) => unknown> {
  const merged = new Map<string, (arg: unknown) => unknown>()
  for (const domain of domains) {
    for (const [name, handler] of Object.entries(domain)) {
      if (handler === undefined) continue
      if (!Object.hasOwn(contract, name)) throw new Error(`Handler registered for "${name}", which is not in the IPC contract`)
      if (merged.has(name)) throw new Error(`Handler for "${name}" registered twice`)
      merged.set(name, handler as (arg: unknown) => unknown)
    }
  }
  const missing = Object.keys(contract).filter((name) => !merged.has(name))
  if (missing.length > 0) throw new Error(`No handler for contract call(s): ${missing.join(', ')}`)
  return merged
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const handlers = mergeDomains(options.contract, options.domains)
  return {
    async dispatch(name, arg) {
      const checked = checkCall(options.contract, name, arg)
      if (!checked.ok) return checked.result
      const handler = handlers.get(checked.name) as (arg: unknown) => unknown
      try {
        return ok(await handler(checked.arg))
      } catch (error) {
        if (error instanceof AppError) {
          return fail(error.code, redactSecrets(error.message), error.details)
        }
        const text = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error)
        options.logError(redactSecrets(`${checked.name} failed: ${text}`))
        return fail(BoundaryErrorCode.Internal, `${checked.name} failed unexpectedly; the details were written to the log.`)
      }
    }
  }
}
