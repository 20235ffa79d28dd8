// What every part of the reconciliation service works with: the cache database, the clock, who is acting, and the audit trail they write to.
import type Database from 'better-sqlite3'
import type { AuditEventBody } from '../../shared/reconcile-events'
import { appendEvent, osUserName, type AuditEvent } from './audit'

export class ReconContext {
  constructor(
    readonly db: Database.Database,
    private readonly options: { now?: () => Date; user?: string } = {}
  ) {}

  now(): Date {
    return this.options.now?.() ?? new Date()
  }

  /** Who acts: the OS user name unless the caller said otherwise. */
  user(): string {
    return this.options.user ?? osUserName()
  }

  /** Appends one event to a session's audit trail, in the caller's transaction when there is one; `at`: a time fixed before (a close's, which its evidence was made for). */
  record(sessionId: string, body: AuditEventBody, at?: string): AuditEvent {
    return appendEvent(this.db, sessionId, body, at === undefined ? () => this.now() : () => new Date(at), this.user())
  }
}
