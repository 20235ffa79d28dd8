// Team schema v2 (frozen once shipped: a change is a new file): shared sessions, their inputs and their events, written only through functions that check the caller's role, the session's state and separation of duties, number each event in a gapless per-session sequence and extend its SHA-256 chain.
import type { TeamMigration } from '../migrations'

export const v2: TeamMigration = {
  version: 2,
  name: 'sessions and events',
  sql: `
create table ledgerline.sessions (
  id text primary key,
  name text not null,
  period_from date,
  period_to date,
  rule_version text not null,
  settings jsonb not null,
  state text not null default 'open' check (state in ('open', 'submitted', 'approved')),
  preparer name not null,
  reviewer name,
  shared_at timestamptz not null default now(),
  last_seq integer not null default 0,
  last_hash text not null default repeat('0', 64)
);

-- What the session was reconciled from, exactly as imported: statement files and the provider records it used.
create table ledgerline.session_inputs (
  session_id text not null references ledgerline.sessions (id),
  kind text not null check (kind in ('statement', 'provider_records')),
  name text not null,
  sha256 text not null,
  content bytea not null,
  meta jsonb not null default '{}',
  primary key (session_id, kind, name)
);

create table ledgerline.events (
  session_id text not null references ledgerline.sessions (id),
  seq integer not null,
  kind text not null,
  item_key text,
  based_on integer,
  payload jsonb not null,
  author name not null,
  at timestamptz not null,
  prev_hash text not null,
  hash text not null,
  primary key (session_id, seq)
);

-- Each item's version: how many decisions it has had, and who made the last one when.
create table ledgerline.item_versions (
  session_id text not null references ledgerline.sessions (id),
  item_key text not null,
  version integer not null,
  changed_by name not null,
  changed_at timestamptz not null,
  primary key (session_id, item_key)
);

revoke all on ledgerline.sessions, ledgerline.session_inputs, ledgerline.events, ledgerline.item_versions from public;

-- The text an event's hash is of: every field, in order, separated by unit separators; times in UTC to the microsecond.
create function ledgerline.event_text(p_prev text, p_seq integer, p_kind text, p_item text, p_based integer, p_payload jsonb, p_author name, p_at timestamptz)
returns text language sql immutable set search_path = pg_catalog as $$
  select concat_ws(chr(31), p_prev, p_seq::text, p_kind, coalesce(p_item, ''), coalesce(p_based::text, ''), p_payload::text, p_author::text,
    to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
$$;

create function ledgerline.require_member() returns text
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
declare r text;
begin
  select role into r from ledgerline.members where login = session_user;
  if r is null then
    raise exception using errcode = 'LLROL', message = format('%s is not a member of this workspace', session_user);
  end if;
  return r;
end $$;

-- Appends one event under the session's row lock: the next number, the chain extended, a doorbell rung (no data).
create function ledgerline.append_event(p_session text, p_kind text, p_item text, p_based integer, p_payload jsonb) returns integer
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare s ledgerline.sessions; n integer; t timestamptz := clock_timestamp(); h text;
begin
  select * into s from ledgerline.sessions where id = p_session for update;
  n := s.last_seq + 1;
  h := encode(sha256(convert_to(ledgerline.event_text(s.last_hash, n, p_kind, p_item, p_based, p_payload, session_user, t), 'UTF8')), 'hex');
  insert into ledgerline.events (session_id, seq, kind, item_key, based_on, payload, author, at, prev_hash, hash)
  values (p_session, n, p_kind, p_item, p_based, p_payload, session_user, t, s.last_hash, h);
  update ledgerline.sessions set last_seq = n, last_hash = h where id = p_session;
  perform pg_notify('ledgerline_events', '');
  return n;
end $$;
revoke all on function ledgerline.append_event(text, text, text, integer, jsonb) from public;

create function ledgerline.session_share(p_id text, p_name text, p_from date, p_to date, p_rule_version text, p_settings jsonb, p_inputs jsonb)
returns integer
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare r text := ledgerline.require_member(); i jsonb; content bytea;
begin
  if r not in ('preparer', 'admin') then
    raise exception using errcode = 'LLROL', message = format('%s is a %s: only a preparer or an admin shares a session', session_user, r);
  end if;
  if exists (select 1 from ledgerline.sessions where id = p_id) then
    raise exception using errcode = 'LLSTA', message = format('session %s is already shared', p_id);
  end if;
  insert into ledgerline.sessions (id, name, period_from, period_to, rule_version, settings, preparer)
  values (p_id, p_name, p_from, p_to, p_rule_version, p_settings, session_user);
  for i in select * from jsonb_array_elements(coalesce(p_inputs, '[]'::jsonb)) loop
    content := decode(i->>'content', 'base64');
    if encode(sha256(content), 'hex') <> i->>'sha256' then
      raise exception using errcode = 'LLSTA', message = format('%s arrived with another SHA-256 than it was sent with: share again', i->>'name');
    end if;
    insert into ledgerline.session_inputs (session_id, kind, name, sha256, content, meta)
    values (p_id, i->>'kind', i->>'name', i->>'sha256', content, coalesce(i->'meta', '{}'::jsonb));
  end loop;
  return ledgerline.append_event(p_id, 'shared', null, null,
    jsonb_build_object('name', p_name, 'rule_version', p_rule_version,
      'inputs', (select coalesce(jsonb_agg(jsonb_build_object('kind', kind, 'name', name, 'sha256', sha256) order by kind, name), '[]') from ledgerline.session_inputs where session_id = p_id)));
end $$;

-- Every change to a shared session: decisions and notes on items, runs, and the sign-off states.
create function ledgerline.session_event(p_session text, p_kind text, p_item text, p_based integer, p_payload jsonb) returns integer
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare r text := ledgerline.require_member(); s ledgerline.sessions; v ledgerline.item_versions; payload jsonb := coalesce(p_payload, '{}'::jsonb); n integer;
begin
  select * into s from ledgerline.sessions where id = p_session for update;
  if not found then
    raise exception using errcode = 'LLSTA', message = format('there is no shared session %s', p_session);
  end if;
  if s.state = 'approved' and p_kind <> 'reopen' then
    raise exception using errcode = 'LLSTA', message = format('session %s is approved: it is locked for everyone (an admin may reopen it with a reason)', p_session);
  end if;
  case p_kind
  when 'decision' then
    if r <> 'preparer' then
      raise exception using errcode = 'LLROL', message = format('%s is a %s: only preparers decide (a reviewer comments with a note)', session_user, r);
    end if;
    if s.state <> 'open' then
      raise exception using errcode = 'LLSTA', message = format('session %s is %s: it is read-only until it is returned', p_session, s.state);
    end if;
    if p_item is null or p_based is null then
      raise exception using errcode = 'LLSTA', message = 'a decision names its item and the item version it was based on';
    end if;
    select * into v from ledgerline.item_versions where session_id = p_session and item_key = p_item;
    if coalesce(v.version, 0) <> p_based then
      raise exception using errcode = 'LLCON', message = format('item %s was changed by %s at %s (version %s) after the version %s this decision was based on',
        p_item, v.changed_by, to_char(v.changed_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"'), v.version, p_based);
    end if;
    n := ledgerline.append_event(p_session, p_kind, p_item, p_based, payload);
    insert into ledgerline.item_versions (session_id, item_key, version, changed_by, changed_at)
    values (p_session, p_item, p_based + 1, session_user, clock_timestamp())
    on conflict (session_id, item_key) do update set version = excluded.version, changed_by = excluded.changed_by, changed_at = excluded.changed_at;
    return n;
  when 'note' then
    if r = 'preparer' and s.state <> 'open' then
      raise exception using errcode = 'LLSTA', message = format('session %s is %s: it is read-only to its preparers until it is returned', p_session, s.state);
    end if;
    if coalesce(payload->>'text', '') = '' then
      raise exception using errcode = 'LLSTA', message = 'a note needs its text';
    end if;
    return ledgerline.append_event(p_session, p_kind, p_item, null, payload);
  when 'run' then
    if r <> 'preparer' or s.state <> 'open' then
      raise exception using errcode = 'LLROL', message = format('%s may not run session %s (%s)', session_user, p_session, s.state);
    end if;
    return ledgerline.append_event(p_session, p_kind, null, null, payload);
  when 'submit' then
    if r not in ('preparer', 'admin') then
      raise exception using errcode = 'LLROL', message = format('%s is a %s: only a preparer submits a session for review', session_user, r);
    end if;
    if s.state <> 'open' then
      raise exception using errcode = 'LLSTA', message = format('session %s is %s, not open: it cannot be submitted', p_session, s.state);
    end if;
    update ledgerline.sessions set state = 'submitted' where id = p_session;
    return ledgerline.append_event(p_session, p_kind, null, null, payload);
  when 'approve' then
    if r not in ('reviewer', 'admin') then
      raise exception using errcode = 'LLROL', message = format('%s is a %s: only a reviewer or an admin approves', session_user, r);
    end if;
    if s.state <> 'submitted' then
      raise exception using errcode = 'LLSTA', message = format('session %s is %s: only a submitted session can be approved', p_session, s.state);
    end if;
    if s.preparer = session_user then
      raise exception using errcode = 'LLSOD', message = format('%s prepared session %s and may not approve it', session_user, p_session);
    end if;
    if exists (select 1 from ledgerline.events where session_id = p_session and author = session_user and kind = 'decision') then
      raise exception using errcode = 'LLSOD', message = format('%s made decisions in session %s and may not approve it', session_user, p_session);
    end if;
    update ledgerline.sessions set state = 'approved', reviewer = session_user where id = p_session;
    return ledgerline.append_event(p_session, p_kind, null, null, payload);
  when 'return' then
    if r not in ('reviewer', 'admin') then
      raise exception using errcode = 'LLROL', message = format('%s is a %s: only a reviewer or an admin returns a session', session_user, r);
    end if;
    if s.state <> 'submitted' then
      raise exception using errcode = 'LLSTA', message = format('session %s is %s: only a submitted session can be returned', p_session, s.state);
    end if;
    if coalesce(payload->>'reason', '') = '' then
      raise exception using errcode = 'LLSTA', message = 'returning a session needs a comment saying why';
    end if;
    update ledgerline.sessions set state = 'open', reviewer = session_user where id = p_session;
    return ledgerline.append_event(p_session, p_kind, null, null, payload);
  when 'reopen' then
    if r <> 'admin' then
      raise exception using errcode = 'LLROL', message = format('%s is a %s: only an admin reopens an approved session', session_user, r);
    end if;
    if s.state <> 'approved' then
      raise exception using errcode = 'LLSTA', message = format('session %s is %s: only an approved session is reopened', p_session, s.state);
    end if;
    if coalesce(payload->>'reason', '') = '' then
      raise exception using errcode = 'LLSTA', message = 'reopening a session needs a reason';
    end if;
    update ledgerline.sessions set state = 'open' where id = p_session;
    return ledgerline.append_event(p_session, p_kind, null, null, payload);
  else
    raise exception using errcode = 'LLSTA', message = format('%s is not a kind of session event', p_kind);
  end case;
end $$;

-- The shared sessions a member sees, with who prepared and reviewed each and its counts.
create function ledgerline.session_list()
returns table (id text, name text, period_from date, period_to date, state text, preparer name, reviewer name, rule_version text, events integer, decisions bigint, notes bigint)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return query select s.id, s.name, s.period_from, s.period_to, s.state, s.preparer, s.reviewer, s.rule_version, s.last_seq,
    (select count(*) from ledgerline.events e where e.session_id = s.id and e.kind = 'decision'),
    (select count(*) from ledgerline.events e where e.session_id = s.id and e.kind = 'note')
  from ledgerline.sessions s order by s.shared_at, s.id;
end $$;

-- A session's events after the one a client has (pulled; the doorbell never carries them).
create function ledgerline.events_after(p_session text, p_seq integer)
returns table (seq integer, kind text, item_key text, based_on integer, payload text, author name, at text, prev_hash text, hash text)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return query select e.seq, e.kind, e.item_key, e.based_on, e.payload::text, e.author,
    to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), e.prev_hash, e.hash
  from ledgerline.events e where e.session_id = p_session and e.seq > p_seq order by e.seq;
end $$;

-- Where a session's chain ends, as the server recorded it (so a deleted last event is found too).
create function ledgerline.session_head(p_session text) returns table (last_seq integer, last_hash text)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return query select s.last_seq, s.last_hash from ledgerline.sessions s where s.id = p_session;
end $$;

-- An item's current version, for a decision to name what it was based on.
create function ledgerline.item_version(p_session text, p_item text) returns integer
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return coalesce((select version from ledgerline.item_versions where session_id = p_session and item_key = p_item), 0);
end $$;
`
}
