// The review's decisions about the selected item, each sent as it is made and answered on screen: shared by its keys and its buttons.
import { useDialog } from 'naive-ui'
import { useToasts } from '../../../toasts'
import { isException, type Decision } from '../../../../../shared/reconcile'
import { money } from '../../../format'
import { useNotify } from '../../../notify'
import { useReviewStore } from '../../../stores/review'
import { useTeamStore } from '../../../stores/team'

export function useDecisions() {
  const review = useReviewStore()
  const team = useTeamStore()
  const message = useToasts()
  const dialog = useDialog()
  const notify = useNotify()

  /** Sends one decision; says it is done, or why it failed, or (a shared session out of reach of its workspace) that it waits here. */
  async function send(decision: Decision, done: string): Promise<void> {
    const error = await review.decide(decision)
    const waiting = review.session?.team?.replay ? (team.view?.waiting.length ?? 0) : 0
    if (error) notify.failed(error)
    else if (waiting > 0)
      message.warning(
        `${done} The workspace cannot be reached: it waits on this computer (${waiting} waiting) and is sent as soon as the connection is back.`,
        { duration: 6000 }
      )
    else message.success(done, { duration: 2500 })
  }
  function accept(): void {
    const item = review.current
    if (item?.outcome === 'suggested' && !item.decision) void send({ kind: 'accept', itemKey: item.key }, 'Suggestion accepted.')
  }
  function reject(): void {
    const item = review.current
    if (item?.outcome === 'suggested' && !item.decision)
      void send({ kind: 'reject', itemKey: item.key }, 'Suggestion rejected; it will not be suggested again.')
  }
  function unmatch(): void {
    const item = review.current
    if (item?.decision) void send({ kind: 'unmatch', itemKey: item.key }, 'Unmatched.')
  }
  function toggleResolved(): void {
    const item = review.current
    if (item && isException(item.outcome))
      void send({ kind: 'resolve', itemKey: item.key, resolved: !item.resolved }, item.resolved ? 'Marked unresolved.' : 'Marked resolved.')
  }
  function undo(): void {
    void send({ kind: 'undo' }, 'Last decision undone.')
  }
  function pickCurrent(): void {
    const item = review.current
    if (item) review.pick(item)
  }
  /** Asks, with both sides' totals and their difference, before matching the picked items by hand. */
  function confirmHandMatch(): void {
    const m = review.handMatch
    if (m.provider.length === 0 || m.file.length === 0) {
      message.warning('Pick at least one provider record and one file line (x on each item).')
      return
    }
    const show = (minor: number): string => (m.currency ? money(minor, null, m.currency) : String(minor))
    dialog.warning({
      title: 'Match by hand?',
      content: `${m.provider.length} provider record(s), ${show(m.providerMinor)}, with ${m.file.length} file line(s), ${show(m.fileMinor)}: difference ${show(m.differenceMinor)}.`,
      positiveText: 'Match',
      negativeText: 'Cancel',
      onPositiveClick: async () => {
        const error = await review.matchPicked()
        if (error) notify.failed(error)
        else message.success('Matched by hand.')
      }
    })
  }
  return { send, accept, reject, unmatch, toggleResolved, undo, pickCurrent, confirmHandMatch }
}
