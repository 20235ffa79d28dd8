// Sharing a session and opening a shared one, from whichever screen asks: main's confirmation respected, a failure said, and the shared copy's review shown.
import { useToasts } from '../../toasts'
import { useRouter } from 'vue-router'
import { wasDeclined } from '../../errors'
import { useNotify } from '../../notify'
import { useTeamStore } from '../../stores/team'

export function useTeamNavigation(): {
  share(session: { id: string; name: string }): Promise<void>
  open(sharedId: string): Promise<void>
} {
  const team = useTeamStore()
  const router = useRouter()
  const notify = useNotify()
  const message = useToasts()
  return {
    /** Shares a session of this computer's own (main asks first), then shows its shared copy: the one worked on from now on. */
    async share(session) {
      const answer = await team.share(session.id)
      if (!answer.ok) {
        if (!wasDeclined(answer.error)) notify.failed(answer.error)
        return
      }
      message.success(
        `"${session.name}" is shared with the workspace. Its shared copy is open: decisions made here now reach every member.`,
        {
          duration: 8000
        }
      )
      await router.push({ name: 'review', params: { id: answer.value.sessionId } })
    },
    /** Opens a shared session here (downloaded and replayed the first time; its workspace profile becomes the one in use) and shows its review. */
    async open(sharedId) {
      const answer = await team.open(sharedId)
      if (!answer.ok) notify.failed(answer.error)
      else await router.push({ name: 'review', params: { id: answer.value.sessionId } })
    }
  }
}
