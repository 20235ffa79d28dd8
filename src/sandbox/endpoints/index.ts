// Every endpoint of the Sandbox, and which one a request's method and path name.
import { paymentRoutes } from './payments'
import { planRoutes } from './plans'
import type { Route } from './route'
import { simulatorRoutes } from './simulator'
import { subscriptionRoutes } from './subscriptions'
import { transferRoutes } from './transfers'
import { virtualAccountRoutes } from './virtual-accounts'

export const ROUTES: readonly Route[] = [
  ...virtualAccountRoutes,
  ...paymentRoutes,
  ...transferRoutes,
  ...subscriptionRoutes,
  ...planRoutes,
  ...simulatorRoutes
]

/** The endpoint a method and a path under /v1 name, with the path's parameters decoded; null when none does. */
export function route(method: string, path: string): { route: Route; params: string[] } | null {
  for (const candidate of ROUTES) {
    const match = candidate.path.exec(path)
    if (match && candidate.method === method) return { route: candidate, params: match.slice(1).map((p) => decodeURIComponent(p)) }
  }
  return null
}
