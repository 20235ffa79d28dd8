// Team schema v3 (frozen once shipped: a change is a new file): what a member's client needs to replay a session (its details and inputs), events sent at most once whatever the network does, who has a session open, and the workspace's schema version for a client to check.
import type { TeamMigration } from '../migrations'

export const v3: TeamMigration = {
  version: 3,
  name: 'replay, events sent once, presence',
  sql: `
-- The reference a client gave each event it sent: sending it again (after a dropped connection, a killed client) returns the event it already made.
create table ledgerline.event_refs (
  session_id text not null references ledgerline.sessions (id),
  ref text not null,
  author name not null,
  seq integer not null,
  primary key (session_id, ref)
);

-- Who had which session open last when (a client says so every minute while it has it open).
create table ledgerline.presence (
  session_id text not null references ledgerline.sessions (id),
  login name not null,
  seen_at timestamptz not null,
  primary key (session_id, login)
);

revoke all on ledgerline.event_refs, ledgerline.presence from public;

-- session_event, sent at most once: the same reference from the same member returns the event it made, whatever was refused or lost between.
create function ledgerline.session_event_once(p_ref text, p_session text, p_kind text, p_item text, p_based integer, p_payload jsonb) returns integer
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare r text := ledgerline.require_member(); done ledgerline.event_refs; n integer;
begin
  if coalesce(p_ref, '') = '' or length(p_ref) > 100 then
    raise exception using errcode = 'LLSTA', message = 'an event sent once needs its reference (at most 100 characters)';
  end if;
  -- Under the session's row lock, so the same reference sent twice at once is made once.
  perform 1 from ledgerline.sessions where id = p_session for update;
  select * into done from ledgerline.event_refs where session_id = p_session and ref = p_ref;
  if found then
    if done.author <> session_user then
      raise exception using errcode = 'LLSTA', message = format('reference %s was sent by %s, not %s', p_ref, done.author, session_user);
    end if;
    return done.seq;
  end if;
  n := ledgerline.session_event(p_session, p_kind, p_item, p_based, p_payload);
  insert into ledgerline.event_refs (session_id, ref, author, seq) values (p_session, p_ref, session_user, n);
  return n;
end $$;

-- A shared session as a member's client replays it: its settings and rule version, and where its chain ends.
create function ledgerline.session_detail(p_session text)
returns table (id text, name text, period_from date, period_to date, rule_version text, settings jsonb, state text, preparer name, reviewer name,
  shared_at text, last_seq integer, last_hash text)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return query select s.id, s.name, s.period_from, s.period_to, s.rule_version, s.settings, s.state, s.preparer, s.reviewer,
    to_char(s.shared_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), s.last_seq, s.last_hash
  from ledgerline.sessions s where s.id = p_session;
end $$;

-- A shared session's inputs exactly as shared: statement files and the provider records snapshot.
create function ledgerline.session_inputs_of(p_session text)
returns table (kind text, name text, sha256 text, content bytea, meta jsonb)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return query select i.kind, i.name, i.sha256, i.content, i.meta from ledgerline.session_inputs i
  where i.session_id = p_session order by i.kind desc, i.name;
end $$;

-- The caller has the session open now.
create function ledgerline.session_seen(p_session text) returns void
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  if not exists (select 1 from ledgerline.sessions where id = p_session) then
    raise exception using errcode = 'LLSTA', message = format('there is no shared session %s', p_session);
  end if;
  insert into ledgerline.presence (session_id, login, seen_at) values (p_session, session_user, now())
  on conflict (session_id, login) do update set seen_at = excluded.seen_at;
end $$;

-- The workspace's schema version, for a member's client to check that it knows this workspace's rules.
create function ledgerline.workspace_version() returns integer
language sql stable security definer set search_path = pg_catalog, ledgerline as $$
  select coalesce(max(version), 0) from ledgerline.schema_migrations
$$;

-- Who has which session open: seen in the last two minutes.
create function ledgerline.session_presence() returns table (session_id text, login name, seen_at text)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return query select p.session_id, p.login, to_char(p.seen_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  from ledgerline.presence p where p.seen_at > now() - interval '2 minutes' order by p.session_id, p.login;
end $$;
`
}
