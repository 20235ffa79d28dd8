// Main's IPC gate: the only way into the app's services. Checks the sender and the argument of every call, then forwards it to the host.
import { BoundaryErrorCode, fail, type CallResult } from '../../shared/ipc/result'
import { checkCall, type ContractShape } from './router'

/** Where a call came from, as the transport (Electron IPC or the test bridge) reports it. */
export interface CallSender {
  /** URL of the frame that sent the call. */
  url: string
  /** True only when the call came from the window's top-level frame. */
  isMainFrame: boolean
}

export interface GateOptions {
  contract: ContractShape
  isTrustedSender: (sender: CallSender) => boolean
  /** Sends a checked call on (to the service host) and resolves with its result; never rejects. */
  forward: (name: string, arg: unknown) => Promise<CallResult<unknown>>
}

export interface Gate {
  dispatch(name: unknown, arg: unknown, sender: CallSender): Promise<CallResult<unknown>>
}

export function createGate(options: GateOptions): Gate {
  return {
    async dispatch(name, arg, sender) {
      if (!options.isTrustedSender(sender)) {
        return fail(BoundaryErrorCode.ForbiddenSender, 'This call did not come from the application window and was refused.')
      }
      const checked = checkCall(options.contract, name, arg)
      if (!checked.ok) return checked.result
      return options.forward(checked.name, checked.arg)
    }
  }
}

/**
 * Trusts only the top-level frame of the app's own page: the app:// origin the window loads
 * (scheme and host, as custom schemes have no web origin), an http(s) origin in development and
 * tests, or an exact file:// page.
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
    return trusted.some((page) => {
      if (page.protocol === 'file:') return url.protocol === 'file:' && url.pathname === page.pathname
      if (page.protocol === 'http:' || page.protocol === 'https:') return url.origin === page.origin
      return url.protocol === page.protocol && url.host === page.host && url.username === '' && url.password === ''
    })
  }
}
