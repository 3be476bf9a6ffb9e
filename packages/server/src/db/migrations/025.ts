/** Migration 25, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 25,
  name: 'refused attempts in the audit log, a row per address, action and minute with a count (§12.1)',
  sql: `
-- a refused sign-in, a 401 or 403 on a write and a 429 are audited; a flood of them is one row per
-- address, action and minute (its bucket) whose count grows — nothing else of the log ever changes
alter table audit_log add column count int not null default 1;
alter table audit_log add column bucket text;
create unique index audit_log_bucket on audit_log (bucket) where bucket is not null;
create or replace function audit_log_frozen() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and old.bucket is not null and new.bucket = old.bucket and new.count > old.count
     and new.id = old.id and new.at = old.at and new.actor_id is not distinct from old.actor_id
     and new.actor = old.actor and new.address is not distinct from old.address
     and new.action = old.action and new.target = old.target
     and new.before is not distinct from old.before and new.after is not distinct from old.after then
    return new;
  end if;
  raise exception 'audit_log: записи журнала не изменяются и не удаляются';
end
$$;
`,
};
