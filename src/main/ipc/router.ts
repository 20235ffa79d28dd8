// The main-side router: the only way into main-process services, checking sender and argument for every call.
import type { z } from 'zod'
import type { CallName, Calls, CallValue } from '../../shared/ipc/contract'
import { BoundaryErrorCode, fail, ok, type CallResult } from '../../shared/ipc/result'
import { AppError } from '../errors'
import { redactSecrets } from '../redact'

/** Where a call came from, as the transport (Electron IPC or the test bridge) reports it. */
export interface CallSender {
  /** URL of the frame that sent the call. */
  url: string
  /** True only when the call came from the window's top-level frame. */
  isMainFrame: boolean
}

export type Handler<N extends CallName> = (arg: z.output<Calls[N]['args']>) => Promise<CallValue<N>> | CallValue<N>

/** A domain's handlers for the app's contract: a subset of it, keyed by full call name. */
export type HandlerMap = { [N in CallName]?: Handler<N> }

/** What the router needs of a contract: an argument schema per call name. */
export type ContractShape = Readonly<Record<string, { readonly args: z.ZodType }>>

type AnyHandler = (arg: never) => unknown

export interface RouterOptions {
  /** The calls this router serves; the app passes `calls` from the shared contract. */
  contract: ContractShape
  /** Handler maps, one per domain; together they must cover the contract exactly once. */
  domains: ReadonlyArray<Readonly<Record<string, AnyHandler | undefined>>>
  isTrustedSender: (sender: CallSender) => boolean
  /** Receives unexpected failures, already redacted; never shown to the renderer. */
  logError: (message: string) => void
}

export interface Router {
  dispatch(name: unknown, arg: unknown, sender: CallSender): Promise<CallResult<unknown>>
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

/** Merges domain handler maps, refusing a name handled twice, a name outside the contract, or a call left unhandled. */
function mergeDomains(contract: ContractShape, domains: RouterOptions['domains']): Map<string, (arg: unknown) => unknown> {
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

export function createRouter(options: RouterOptions): Router {
  const { contract } = options
  const handlers = mergeDomains(contract, options.domains)

  return {
    async dispatch(name, arg, sender) {
      if (!options.isTrustedSender(sender)) {
        return fail(BoundaryErrorCode.ForbiddenSender, 'This call did not come from the application window and was refused.')
      }
      const handler = typeof name === 'string' ? handlers.get(name) : undefined
      const spec = typeof name === 'string' && Object.hasOwn(contract, name) ? contract[name] : undefined
      if (typeof name !== 'string' || !handler || !spec) {
        const shown = typeof name === 'string' ? `"${name.slice(0, 80)}"` : `a ${typeof name}`
        return fail(BoundaryErrorCode.UnknownCall, `Unknown call ${shown}.`)
      }
      const parsed = spec.args.safeParse(arg)
      if (!parsed.success) {
        const { message, details } = describeIssues(parsed.error.issues)
        return fail(BoundaryErrorCode.InvalidArgument, `${name}: ${message}`, details)
      }
      try {
        return ok(await handler(parsed.data))
      } catch (error) {
        if (error instanceof AppError) {
          return fail(error.code, redactSecrets(error.message), error.details)
        }
        const text = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error)
        options.logError(redactSecrets(`${name} failed: ${text}`))
        return fail(BoundaryErrorCode.Internal, `${name} failed unexpectedly; the details were written to the log.`)
      }
    }
  }
}

/**
 * Trusts only the top-level frame of the app's own page: an http(s) origin from the list,
 * or the exact file:// page the app loads.
 */
export function createSenderCheck(trustedPages: readonly string[]): (sender: CallSender) => boolean {
  const trusted = trustedPages.map((page) => new URL(page))
  return (sender) => {
    if (!sender.isMainFrame) return false
    let url: URL
    try {
      url = new URL(sender.url)
    } catch {
      return false
    }
    return trusted.some((page) =>
      page.protocol === 'file:' ? url.protocol === 'file:' && url.pathname === page.pathname : url.origin === page.origin
    )
  }
}
