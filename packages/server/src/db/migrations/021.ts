/** Migration 21, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 21,
  name: 'a team: roles, disabled users, one-time links, sessions of devices, the audit log (§11.5)',
  sql: `
-- the first user is the admin, the rest analysts
alter table app_user add column role text not null default 'analyst'
  check (role in ('admin', 'analyst', 'viewer'));
update app_user set role = 'admin' where id = (select min(id) from app_user);
-- a disabled user cannot sign in and has no sessions
alter table app_user add column disabled_at timestamptz;
-- a session is one device: what it said it is, from where, and an id to end it by
alter table session add column id bigserial;
create unique index session_id_key on session (id);
alter table session add column user_agent text;
alter table session add column address text;
-- a one-time link that sets a new user's password (24 h), stored as the SHA-256 of its token
create table user_invite (
  token_hash text primary key,
  user_id int not null references app_user (id) on delete cascade,
  expires_at timestamptz not null
);
-- who did what, when, from where, before → after; never changed: no API writes here but the actions
-- themselves, and the database refuses updates and deletes (kept for good, at least the year §11.5 asks)
create table audit_log (
  id bigserial primary key,
  at timestamptz not null default now(),
  actor_id int,
  actor text not null,
  address text,
  action text not null,
  target text not null,
  before jsonb,
  after jsonb
);
create index audit_log_at on audit_log (at);
create function audit_log_frozen() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log: записи журнала не изменяются и не удаляются';
end
$$;
create trigger audit_log_no_change before update or delete on audit_log
  for each row execute function audit_log_frozen();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_frozen();
`,
};
