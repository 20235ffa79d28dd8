// Team schema v1 (frozen once shipped: a change is a new file): the workspace's members, each a PostgreSQL login with a Ledgerline role, changed only through functions that check who calls them.
import type { TeamMigration } from '../migrations'

export const v1: TeamMigration = {
  version: 1,
  name: 'workspace members',
  sql: `
create table ledgerline.members (
  login name primary key,
  role text not null check (role in ('preparer', 'reviewer', 'admin')),
  added_by name not null,
  added_at timestamptz not null default now()
);
revoke all on ledgerline.members from public;

-- A member is the login that connected (session_user): inside these SECURITY DEFINER functions current_user is
-- the workspace owner, and no client can name someone else.
-- Who may manage members: the workspace owner (who owns the schema) and admins.
create function ledgerline.may_manage_members() returns boolean
language sql stable security definer set search_path = pg_catalog, ledgerline as $$
  select session_user = (select nspowner::regrole::name from pg_namespace where nspname = 'ledgerline')
      or exists (select 1 from ledgerline.members m where m.login = session_user and m.role = 'admin')
$$;

create function ledgerline.member_set(p_login text, p_role text) returns void
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
begin
  if not ledgerline.may_manage_members() then
    raise exception using errcode = 'LLROL', message = format('%s may not add members: only the workspace owner or an admin may', session_user);
  end if;
  if p_role not in ('preparer', 'reviewer', 'admin') then
    raise exception using errcode = 'LLROL', message = format('%s is not a role (preparer, reviewer, admin)', p_role);
  end if;
  if not exists (select 1 from pg_roles where rolname = p_login and rolcanlogin) then
    raise exception using errcode = 'LLROL', message = format('%s is not a login on this server: create it first (CREATE ROLE ... LOGIN PASSWORD ...)', p_login);
  end if;
  insert into ledgerline.members (login, role, added_by) values (p_login, p_role, session_user)
  on conflict (login) do update set role = excluded.role, added_by = excluded.added_by, added_at = now();
end $$;

create function ledgerline.member_remove(p_login text) returns boolean
language plpgsql security definer set search_path = pg_catalog, ledgerline as $$
begin
  if not ledgerline.may_manage_members() then
    raise exception using errcode = 'LLROL', message = format('%s may not remove members: only the workspace owner or an admin may', session_user);
  end if;
  delete from ledgerline.members where login = p_login;
  return found;
end $$;

create function ledgerline.member_list() returns table (login name, role text, added_by name, added_at timestamptz)
language plpgsql stable security definer set search_path = pg_catalog, ledgerline as $$
begin
  if not ledgerline.may_manage_members() and not exists (select 1 from ledgerline.members m where m.login = session_user) then
    raise exception using errcode = 'LLROL', message = format('%s is not a member of this workspace', session_user);
  end if;
  return query select m.login, m.role, m.added_by, m.added_at from ledgerline.members m order by m.login;
end $$;

-- The caller's own role in the workspace (null when not a member).
create function ledgerline.my_role() returns text
language sql stable security definer set search_path = pg_catalog, ledgerline as $$
  select role from ledgerline.members where login = session_user
$$;
`
}
