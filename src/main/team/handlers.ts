// team:* calls: the workspace connection, its shared sessions, opening and sharing one (sharing confirmed by main), sign-off steps, comments and conflicts; the server decides who may do what.
import { notConfirmed } from '../errors'
import type { EventEmitter } from '../ipc/events'
import type { MainUi } from '../ipc/questions'
import type { ActiveProfile } from '../profiles/active'
import type { TeamWorkspace } from './workspace'
import type { HandlerMap } from '../ipc/router'

/** What the team calls use, wired by the host. */
export interface TeamServices {
  team: TeamWorkspace
  active: ActiveProfile
  events: EventEmitter
  ui: Pick<MainUi, 'confirm'>
}

export function teamHandlers(ctx: TeamServices): HandlerMap {
  /** A shared session's profile becomes the one in use: its mode shows in the header, test and live never mix. */
  const useProfile = (profileId: string): void => {
    if (ctx.active.current().id === profileId) return
    ctx.active.set(profileId)
    ctx.events.emit('profile:changed', { profileId, reason: 'selected' })
  }

  return {
    'team:status': () => ctx.team.status(),
    'team:connect': ({ url, password }) => ctx.team.connect(url, password),
    'team:disconnect': async () => {
      await ctx.team.disconnect()
      return null
    },
    'team:sessions': () => ctx.team.sessions(),
    'team:open': async ({ sharedId }) => {
      const opened = await ctx.team.open(sharedId)
      useProfile(opened.profileId)
      return opened
    },
    'team:share': async ({ sessionId }) => {
      const what = ctx.team.shareSummary(sessionId)
      const megabytes = (what.bytes / 1048576).toFixed(1)
      const yes = await ctx.ui.confirm({
        title: 'Share this session with the workspace?',
        message: `Share "${what.name}" with the team workspace ${what.workspace}?`,
        detail: [
          `Its ${what.files.length} statement file(s) (${what.files.join(', ')}) exactly as imported, the provider records it reads and the decisions made so far go to the workspace's server (${megabytes} MB). Every member of the workspace sees them.`,
          'You become its preparer. From now on it is worked on in its shared copy, which opens here.'
        ].join('\n'),
        confirmLabel: 'Share session'
      })
      if (!yes) throw notConfirmed(`Sharing "${what.name}"`)
      const shared = await ctx.team.share(sessionId)
      useProfile(shared.profileId)
      return shared
    },
    'team:session': ({ sessionId }) => ctx.team.view(sessionId),
    'team:left': async ({ sessionId }) => {
      await ctx.team.left(sessionId)
      return null
    },
    'team:signOff': ({ sessionId, step, reason }) => ctx.team.signOff(sessionId, step, reason),
    'team:comment': ({ sessionId, itemKey, text }) => ctx.team.comment(sessionId, itemKey, text),
    'team:sync': async () => {
      const { sent, refused, events, problems } = await ctx.team.sync()
      return { sent, refused, events, problems }
    },
    'team:dismissConflict': ({ sessionId, ref }) => ctx.team.dismissConflict(sessionId, ref)
  }
}
