// Team schema v4 (frozen once shipped: a change is a new file): the workspace's own rules, which every member's shared sessions are decided by: ordered, named, each saved change a new version (every version kept), applied only once enabled, and every change kept with who made it; and presence said at once (opening or leaving a session rings every member's doorbell).
import type { TeamMigration } from '../migrations'

export const v4: TeamMigration = {
  version: 4,
  name: 'workspace rules, presence at once',
  sql: `
create table ledgerline.rules (
  name text primary key check (name ~ '^[a-z0-9][a-z0-9-]{0,59}$'),
  place integer not null,
  version integer not null,
  enabled boolean not null default false,
  rule jsonb not null,
  updated_at timestamptz not null,
  updated_by name not null
);

-- Every version of every rule as it was saved (a removed rule's too: the items and events it decided name them).
create table ledgerline.rule_versions (
  name text not null,
  version integer not null,
  rule jsonb not null,
  saved_at timestamptz not null,
  saved_by name not null,
  primary key (name, version)
);

-- What was done to the rules, by whom and when.
create table ledgerline.rule_changes (
  seq bigserial primary key,
  name text not null,
  what text not null check (what in ('added', 'new version', 'enabled', 'disabled', 'moved', 'removed')),
  version integer not null,
  changed_at timestamptz not null default clock_timestamp(),
  changed_by name not null default session_user
);

revoke all on ledgerline.rules, ledgerline.rule_versions, ledgerline.rule_changes from public;

-- Who may change the rules: preparers (who decide) and admins; a reviewer reads them.
create function ledgerline.require_rule_author() returns text
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
declare r text := ledgerline.require_member();
begin
  if r not in ('preparer', 'admin') then
    raise exception using errcode = 'LLROL', message = format('%s is a %s: only preparers and admins change the workspace''s rules', session_user, r);
  end if;
  -- One change of the rules at a time: their order stays 1, 2, 3…
  perform pg_advisory_xact_lock(hashtext('ledgerline rules'));
  return r;
end $$;

-- A change the members' clients should hear of (their doorbell rings; they pull and apply the rules).
create function ledgerline.rule_changed(p_name text, p_what text, p_version integer) returns void
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
begin
  insert into ledgerline.rule_changes (name, what, version) values (p_name, p_what, p_version);
  perform pg_notify('ledgerline_events', '');
end $$;
revoke all on function ledgerline.rule_changed(text, text, integer) from public;

create function ledgerline.rule_list()
returns table (name text, place integer, version integer, enabled boolean, rule jsonb, updated_at text, updated_by name)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return query select r.name, r.place, r.version, r.enabled, r.rule,
    to_char(r.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.updated_by
  from ledgerline.rules r order by r.place;
end $$;

-- Saves a rule: a new one goes last and not enabled; one of a name the workspace has becomes its next version (its place and
-- whether it is enabled kept); the same rule again changes nothing. A removed rule made again goes on from its last version.
create function ledgerline.rule_save(p_rule jsonb) returns table (version integer, change text)
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare n text := p_rule->>'name'; old ledgerline.rules; v integer; t timestamptz := clock_timestamp();
begin
  perform ledgerline.require_rule_author();
  if jsonb_typeof(p_rule) <> 'object' or n is null or n !~ '^[a-z0-9][a-z0-9-]{0,59}$' then
    raise exception using errcode = 'LLSTA', message = 'a rule is an object with a name of lower-case letters, digits and dashes (up to 60)';
  end if;
  select * into old from ledgerline.rules r where r.name = n;
  if found and old.rule = p_rule then
    return query select old.version, 'unchanged'::text;
    return;
  end if;
  v := greatest(coalesce(old.version, 0), coalesce((select max(rv.version) from ledgerline.rule_versions rv where rv.name = n), 0)) + 1;
  if old.name is not null then
    update ledgerline.rules r set version = v, rule = p_rule, updated_at = t, updated_by = session_user where r.name = n;
  else
    insert into ledgerline.rules (name, place, version, enabled, rule, updated_at, updated_by)
    values (n, coalesce((select max(r.place) from ledgerline.rules r), 0) + 1, v, false, p_rule, t, session_user);
  end if;
  insert into ledgerline.rule_versions (name, version, rule, saved_at, saved_by) values (n, v, p_rule, t, session_user);
  perform ledgerline.rule_changed(n, case when old.name is null then 'added' else 'new version' end, v);
  return query select v, case when old.name is null then 'added' else 'new version' end;
end $$;

create function ledgerline.rule_require(p_name text) returns ledgerline.rules
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
declare found_rule ledgerline.rules;
begin
  select * into found_rule from ledgerline.rules r where r.name = p_name;
  if not found then
    raise exception using errcode = 'LLNOR', message = format('the workspace has no rule "%s"', p_name);
  end if;
  return found_rule;
end $$;
revoke all on function ledgerline.rule_require(text) from public;

create function ledgerline.rule_set_enabled(p_name text, p_enabled boolean) returns void
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare r ledgerline.rules;
begin
  perform ledgerline.require_rule_author();
  r := ledgerline.rule_require(p_name);
  if r.enabled = p_enabled then return; end if;
  update ledgerline.rules x set enabled = p_enabled, updated_at = clock_timestamp(), updated_by = session_user where x.name = p_name;
  perform ledgerline.rule_changed(p_name, case when p_enabled then 'enabled' else 'disabled' end, r.version);
end $$;

-- Moves a rule to place p_to (1: tried first; past the end: last); the others shift and the order stays 1, 2, 3…
create function ledgerline.rule_move(p_name text, p_to integer) returns void
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare r ledgerline.rules; k integer := 0; x record; target integer;
begin
  perform ledgerline.require_rule_author();
  r := ledgerline.rule_require(p_name);
  target := greatest(1, least(p_to, (select count(*) from ledgerline.rules)::integer));
  for x in select o.name from ledgerline.rules o where o.name <> p_name order by o.place loop
    k := k + 1;
    if k = target then k := k + 1; end if;
    update ledgerline.rules o set place = k where o.name = x.name and o.place <> k;
  end loop;
  update ledgerline.rules o set place = target where o.name = p_name;
  if target <> r.place then
    perform ledgerline.rule_changed(p_name, 'moved', r.version);
  end if;
end $$;

create function ledgerline.rule_remove(p_name text) returns void
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare r ledgerline.rules; k integer := 0; x record;
begin
  perform ledgerline.require_rule_author();
  r := ledgerline.rule_require(p_name);
  delete from ledgerline.rules o where o.name = p_name;
  for x in select o.name from ledgerline.rules o order by o.place loop
    k := k + 1;
    update ledgerline.rules o set place = k where o.name = x.name and o.place <> k;
  end loop;
  perform ledgerline.rule_changed(p_name, 'removed', r.version);
end $$;

create function ledgerline.rule_history()
returns table (seq bigint, name text, what text, version integer, changed_at text, changed_by name)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  return query select c.seq, c.name, c.what, c.version, to_char(c.changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), c.changed_by
  from ledgerline.rule_changes c order by c.seq;
end $$;

-- Presence said at once: a member who opens a session (or comes back to it after the two minutes a presence lasts),
-- or leaves it, rings every member's doorbell, so their screens show who has it open within one ring.
create or replace function ledgerline.session_seen(p_session text) returns void
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
declare was timestamptz;
begin
  perform ledgerline.require_member();
  if not exists (select 1 from ledgerline.sessions where id = p_session) then
    raise exception using errcode = 'LLSTA', message = format('there is no shared session %s', p_session);
  end if;
  select p.seen_at into was from ledgerline.presence p where p.session_id = p_session and p.login = session_user;
  insert into ledgerline.presence (session_id, login, seen_at) values (p_session, session_user, now())
  on conflict (session_id, login) do update set seen_at = excluded.seen_at;
  if was is null or was <= now() - interval '2 minutes' then
    perform pg_notify('ledgerline_events', '');
  end if;
end $$;

create function ledgerline.session_left(p_session text) returns void
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
begin
  perform ledgerline.require_member();
  delete from ledgerline.presence p where p.session_id = p_session and p.login = session_user;
  if found then
    perform pg_notify('ledgerline_events', '');
  end if;
end $$;
`
}
