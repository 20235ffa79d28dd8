// The team domain of the IPC contract: the workspace connection (its password goes in, never out), the sessions shared in it, opening and sharing one, its sign-off steps, comments and conflicts.
import { z } from 'zod'
import type { CallErrorCode } from '../error-codes'
import { call, id, noArgs, text } from './define'

export const TEAM_ROLES = ['preparer', 'reviewer', 'admin'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]
export const SHARED_STATES = ['open', 'submitted', 'approved'] as const
export type SharedState = (typeof SHARED_STATES)[number]
/** The sign-off steps: a preparer submits; a reviewer (or an admin) approves or returns; an admin reopens an approved session. */
export const SIGN_OFF_STEPS = ['submit', 'approve', 'return', 'reopen'] as const
export type SignOffStep = (typeof SIGN_OFF_STEPS)[number]
/** The doorbell connection: listening for changes, lost (and trying again), or still connecting. */
export const LINE_STATES = ['listening', 'lost', 'connecting'] as const

/** The workspace this app is connected to, as the window may see it: never the password. */
export interface WorkspaceStatus {
  /** The server URL without a password (postgres://LOGIN@HOST:PORT/DATABASE?…). */
  url: string
  login: string
  /** The workspace as people name it: HOST:PORT/DATABASE. */
  workspace: string
  /** The member's role as the server said last; null when the login is not (or no longer) a member. */
  role: TeamRole | null
  line: (typeof LINE_STATES)[number]
  /** Why the line is lost, in words. */
  problem: string | null
  /** Decisions and comments made here that wait to be sent. */
  waiting: number
}

/** A session shared in the workspace, as the sessions list shows it. */
export interface SharedSessionRow {
  id: string
  name: string
  periodFrom: string | null
  periodTo: string | null
  state: SharedState
  preparer: string
  reviewer: string | null
  decisions: number
  notes: number
  /** Members who have it open now (seen in the last two minutes), this login left out. */
  openBy: string[]
  /** The session it is replayed as on this computer, once opened here. */
  localId: string | null
}

/** One event of a shared session's history, in words. */
export interface TeamEventView {
  seq: number
  kind: string
  /** What happened, in an accountant's words ("approved", "comment", "accept"). */
  what: string
  author: string
  at: string
  itemKey: string | null
  /** A comment's text, or the reason given to return or reopen. */
  text: string | null
  /** For a submission or an approval: still in force, or superseded by which later step. */
  standing: string | null
  /** For a submission or an approval: the items it was of (how many, their SHA-256 as replayed by its author). */
  items: { count: number; sha256: string } | null
  /** For one in force: whether this computer replays exactly those items (null when not checked). */
  sameHere: boolean | null
  hash: string
}

/** A decision or comment made here that the workspace refused, kept on its item until the user lets it go. */
export interface TeamConflictView {
  ref: string
  itemKey: string | null
  what: string
  code: CallErrorCode
  message: string
  refusedAt: string
}

/** What waits on this computer to be sent, by item. */
export interface TeamWaitingView {
  itemKey: string | null
  what: string
  queuedAt: string
}

/** A shared session as its review screen shows it: its state and people, what this member may do, its history, conflicts and waiting work. */
export interface TeamSessionView {
  sharedId: string
  workspace: string
  state: SharedState
  preparer: string
  reviewer: string | null
  /** This computer's login and role in the workspace (null when not connected to it). */
  me: string | null
  role: TeamRole | null
  /** Why nothing can be decided here, whoever asks: another rule version, the session's state, the role; null when the member may decide. */
  readOnly: string | null
  /** What the member may do now (the server checks each again). */
  may: { decide: boolean; comment: boolean; submit: boolean; approve: boolean; return: boolean; reopen: boolean }
  openBy: string[]
  waiting: TeamWaitingView[]
  conflicts: TeamConflictView[]
  history: TeamEventView[]
  lastSeq: number
  lastHash: string
  pulledAt: string | null
}

const reason = z.string().trim().min(1).max(2000)

export const teamCalls = {
  /** The workspace connection, or null when none is set up on this computer. */
  'team:status': call<WorkspaceStatus | null>()(noArgs),
  /** Checks the login with the server, then keeps the URL in the cache and the password in the system keychain; it never comes back. */
  'team:connect': call<WorkspaceStatus>()(
    z.strictObject({ url: z.string().trim().min(1).max(500), password: z.string().min(1).max(1024) })
  ),
  /** Forgets the connection and its password; the sessions opened here stay, read-only until connected again. */
  'team:disconnect': call<null>()(noArgs),
  /** The sessions shared in the workspace, with who has each open. */
  'team:sessions': call<SharedSessionRow[]>()(noArgs),
  /** Opens a shared session on this computer (downloads and replays it the first time) and makes its workspace profile the one in use. */
  'team:open': call<{ sessionId: string; profileId: string }>()(z.strictObject({ sharedId: id })),
  /** Confirmed in a native dialog: publishes a local session with its statements and provider records, then opens its shared copy here. */
  'team:share': call<{ sessionId: string; profileId: string; sharedId: string }>()(z.strictObject({ sessionId: id })),
  /** A replayed session's team side; null for a session that is not shared. Says this member has it open. */
  'team:session': call<TeamSessionView | null>()(z.strictObject({ sessionId: id })),
  /** This member no longer has the shared session open here (the review left it): the others see it at their next ring. */
  'team:left': call<null>()(z.strictObject({ sessionId: id })),
  /** Submit, approve, return (with a reason) or reopen (an admin, with a reason). */
  'team:signOff': call<TeamSessionView>()(z.strictObject({ sessionId: id, step: z.enum(SIGN_OFF_STEPS), reason: reason.optional() })),
  /** A comment on an item (or on the session when itemKey is null): all a reviewer adds. */
  'team:comment': call<TeamSessionView>()(z.strictObject({ sessionId: id, itemKey: z.string().min(1).max(4000).nullable(), text: reason })),
  /** Sends what waits and pulls what is new, for every session opened here. */
  'team:sync': call<{ sent: number; refused: number; events: number; problems: string[] }>()(noArgs),
  /** Lets a refused decision go (decide again on the item as it is now, if still wanted). */
  'team:dismissConflict': call<TeamSessionView>()(z.strictObject({ sessionId: id, ref: id }))
} as const

export const teamEvents = {
  /** The workspace connection changed: connected, lost, back, or forgotten. */
  'team:status': z.strictObject({ line: z.enum(LINE_STATES).nullable(), problem: text(2000).nullable() }),
  /** New events arrived for these sessions (as replayed here): their screens read them again. */
  'team:changed': z.strictObject({ sessionIds: z.array(text(200)).max(1000) }),
  /** Who has these sessions open changed (a member opened or left one): their team side is read again. */
  'team:presence': z.strictObject({ sessionIds: z.array(text(200)).max(1000) })
} as const
