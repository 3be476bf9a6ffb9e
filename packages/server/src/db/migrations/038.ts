/** Migration 38, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 38,
  name: 'the registry’s light histories kept as bytes (db/kept-history.ts), not as jsonb',
  sql: `
-- The registry's figures over time (registered sales, «Надёжность сроков») read every object's light history:
-- at 12,000 objects × ~55 states, 128 MB of jsonb, whose text PostgreSQL made in ~1.7 s. Kept as bytes: a
-- state's day and the facts it has (db/kept-history.ts). The objects already kept: the next open makes them
-- again from their states (the pass of migration 31).
alter table registry_object drop column history;
alter table registry_object add column history bytea;
insert into app_meta (key, value)
  select 'registry_kept_needed', 'показатели реестра' where exists (select 1 from registry_object)
  on conflict (key) do nothing;
`,
};
