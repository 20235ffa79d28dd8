// The virtual-accounts domain of the IPC contract: list the cached ones, create one with the provider.
import { z } from 'zod'
import { call, noArgs } from './define'

export interface VirtualAccountSummary {
  id: string
  accountNumber: string
  accountName: string | null
  bankName: string | null
  /** As the provider last reported it (temporary, expired, …). */
  lifecycle: string | null
  expiresAt: string | null
  amountRaw: string | null
  currency: string | null
}

export const accountCalls = {
  'accounts:list': call<VirtualAccountSummary[]>()(noArgs),
  /** In a live profile, confirmed in a native dialog first. */
  'accounts:create': call<VirtualAccountSummary>()(
    z.strictObject({
      currency: z.enum(['NGN', 'GHS']),
      accountName: z.string().trim().min(1).max(100),
      /** Major units as typed, e.g. "5000.00"; checked against the currency's decimals in the host. */
      amount: z.string().trim().min(1).max(30),
      expiresIn: z.number().int().min(1).max(30).optional()
    })
  )
} as const
