// Schema version 14, frozen once shipped (its checksum is tested): reconcile keeps in its own table which sessions are shared in a team workspace, so it never reads team's tables.
import type { Migration } from '../migrations'

/**
 * Version 14:
 * - recon_shared_links: a session linked to one shared in a team workspace (its HOST:PORT/DATABASE
 *   and shared id). replica_id is null for the replica (the local session that replays the shared
 *   one: it changes only through the workspace); on the session that was shared from this computer
 *   it names that replica. Team writes a link when it creates a replica; each link goes with either
 *   session. Existing replicas are linked from team_replicas, once, here.
 */
export const v14: Migration = {
  version: 14,
  name: 'shared session links owned by reconcile',
  up(db) {
    db.exec(`
      CREATE TABLE recon_shared_links (
        session_id TEXT PRIMARY KEY REFERENCES recon_sessions(id) ON DELETE CASCADE,
        workspace  TEXT NOT NULL,
        shared_id  TEXT NOT NULL,
        replica_id TEXT REFERENCES recon_sessions(id) ON DELETE CASCADE
      ) STRICT;

      INSERT INTO recon_shared_links (session_id, workspace, shared_id, replica_id)
        SELECT session_id, server, shared_id, NULL FROM team_replicas;
      INSERT OR IGNORE INTO recon_shared_links (session_id, workspace, shared_id, replica_id)
        SELECT s.id, t.server, t.shared_id, t.session_id
          FROM team_replicas t JOIN recon_sessions s ON s.id = t.shared_id
         WHERE s.id <> t.session_id
         ORDER BY t.rowid;
    `)
  }
}
