// Schema version 12, frozen once shipped (its checksum is tested): sessions replayed from a team workspace, their events as the server numbered them, and the decisions waiting to be sent.
import type { Migration } from '../migrations'

/**
 * Version 12:
 * - recon_provider_snapshots: a session whose provider side is a snapshot of records (JSON, as
 *   shared), not the profile's cached records: a member replays a shared session without an API key;
 * - team_replicas: a local session that replays a session shared in a workspace (server URL without
 *   password, the shared id), its state and people as last pulled, where its chain ended then, and
 *   why it is read-only here when it is (shared under other matching rules);
 * - team_events: the shared session's events exactly as the server gave them (hash-chained), and
 *   the local audit event a decision was replayed as (local_seq);
 * - team_outbox: events decided here and not yet accepted by the server, in order, each with the
 *   reference the server makes it once by and the login that made it (only that login sends it: the
 *   server authors an event by whoever sends it);
 * - team_conflicts: those the server refused, with its reason, until the user resolves them;
 * - profiles.team_workspace: the workspace (HOST:PORT/DATABASE) a profile holds the replayed
 *   sessions of: such a profile has no API key and nothing to sync.
 */
export const v12: Migration = {
  version: 12,
  name: 'team replicas, outbox and conflicts',
  up(db) {
    db.exec(`
      ALTER TABLE profiles ADD COLUMN team_workspace TEXT;

      CREATE TABLE recon_provider_snapshots (
        session_id TEXT PRIMARY KEY REFERENCES recon_sessions(id) ON DELETE CASCADE,
        side       TEXT NOT NULL
      ) STRICT;

      CREATE TABLE team_replicas (
        session_id   TEXT PRIMARY KEY REFERENCES recon_sessions(id) ON DELETE CASCADE,
        server       TEXT NOT NULL,
        shared_id    TEXT NOT NULL,
        rule_version TEXT NOT NULL,
        read_only    TEXT,
        state        TEXT NOT NULL,
        preparer     TEXT NOT NULL,
        reviewer     TEXT,
        last_seq     INTEGER NOT NULL DEFAULT 0,
        last_hash    TEXT NOT NULL,
        pulled_at    TEXT,
        UNIQUE (server, shared_id)
      ) STRICT;

      CREATE TABLE team_events (
        session_id TEXT NOT NULL REFERENCES team_replicas(session_id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL,
        kind       TEXT NOT NULL,
        item_key   TEXT,
        based_on   INTEGER,
        payload    TEXT NOT NULL,
        author     TEXT NOT NULL,
        at         TEXT NOT NULL,
        prev_hash  TEXT NOT NULL,
        hash       TEXT NOT NULL,
        local_seq  INTEGER,
        PRIMARY KEY (session_id, seq)
      ) STRICT;
      CREATE INDEX team_events_by_item ON team_events (session_id, item_key) WHERE item_key IS NOT NULL;

      CREATE TABLE team_outbox (
        num        INTEGER PRIMARY KEY AUTOINCREMENT,
        ref        TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL REFERENCES team_replicas(session_id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        item_key   TEXT,
        based_on   INTEGER,
        payload    TEXT NOT NULL,
        queued_at  TEXT NOT NULL,
        login      TEXT NOT NULL
      ) STRICT;

      CREATE TABLE team_conflicts (
        ref        TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES team_replicas(session_id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        item_key   TEXT,
        based_on   INTEGER,
        payload    TEXT NOT NULL,
        queued_at  TEXT NOT NULL,
        code       TEXT NOT NULL,
        message    TEXT NOT NULL,
        refused_at TEXT NOT NULL
      ) STRICT;
    `)
  }
}
