// How the review names each outcome and colours its tag.
import type { Outcome } from '../../../../../shared/reconcile'

export const OUTCOME_LABELS: Record<Outcome, string> = {
  matched: 'Matched',
  amount_differs: 'Amount differs',
  currency_differs: 'Currency differs',
  status_differs: 'Status differs',
  only_in_provider: 'Only at the provider',
  pending_at_provider: 'Pending at the provider',
  not_read: 'Line not read',
  only_in_file: 'Only in the file',
  duplicate_in_file: 'Duplicate in the file',
  duplicate_in_provider: 'Duplicate at the provider',
  suggested: 'Suggested',
  ambiguous: 'Ambiguous'
}

export const OUTCOME_TYPES: Record<Outcome, 'success' | 'warning' | 'error' | 'info' | 'default'> = {
  matched: 'success',
  amount_differs: 'error',
  currency_differs: 'error',
  status_differs: 'error',
  only_in_provider: 'warning',
  pending_at_provider: 'default',
  not_read: 'error',
  only_in_file: 'warning',
  duplicate_in_file: 'error',
  duplicate_in_provider: 'error',
  suggested: 'info',
  ambiguous: 'warning'
}
