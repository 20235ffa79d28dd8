// A shared session's state as every screen shows it: its words and its tag's colour.
import type { SharedState } from '../../../../shared/ipc/team'

export const SHARED_STATE_LABELS: Record<SharedState, string> = { open: 'Open', submitted: 'Submitted for review', approved: 'Approved' }
export const SHARED_STATE_TYPES = { open: 'success', submitted: 'warning', approved: 'info' } as const satisfies Record<SharedState, string>
