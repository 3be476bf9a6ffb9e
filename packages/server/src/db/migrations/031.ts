/** Migration 31, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 31,
  name: 'the registry’s figures kept (§11.1): each object’s effective facts and its light history',
  sql: `
-- facts: the object's effective facts now (its state's eff); history: its states by day reduced to the days
-- the facts the figures read (dates, flats, sold) changed — kept by the import's replay (derive/registry.ts), so
-- the registry's reads never parse every state of every object
alter table registry_object add column facts jsonb;
alter table registry_object add column history jsonb;
-- the objects already kept: the next open makes both from their states
insert into app_meta (key, value)
  select 'registry_kept_needed', 'показатели реестра' where exists (select 1 from registry_object)
  on conflict (key) do nothing;
`,
};
