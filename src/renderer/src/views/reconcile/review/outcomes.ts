// How the review names each outcome and colours its tag.
import type { Outcome } from '../../../../../shared/reconcile'

export { OUTCOME_LABELS } from '../../../../../shared/reconcile'

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
