/** Migration 6, of the second stage (DESIGN §10). Append only: a released migration is never edited. */
export default {
  id: 6,
  name: 'status in the cube, area changes, partial scans (DESIGN §10.2–10.4)',
  sql: `
-- A flat can change its price and its area in one snapshot: one event of each kind.
alter table flat_event drop constraint flat_event_pkey;
alter table flat_event add primary key (project_id, day, flat_id, kind);
-- AREA_CHANGED: the area before (the new one is area)
alter table flat_event add column old_area double precision;
-- the lot's status in the event's record (§10.5: sales pace by status)
alter table flat_event add column status text;
alter table summary_project add column area_changed int not null default 0;

-- §10.4: a snapshot with far fewer flats than the ones before it (computed on import); complete: the
-- importer said it is whole (a real sell-out), so it is never partial.
alter table snapshot add column partial boolean not null default false;
alter table snapshot add column complete boolean not null default false;

-- Cubes gain the reserved dimension, events AREA_CHANGED, snapshots their partial flag: rebuilt at the
-- next start (cli/context.ts).
insert into app_meta (key, value)
  select 'rebuild_needed', 'статусы, площади и неполные списки' where exists (select 1 from flat_observation)
  on conflict (key) do update set value = app_meta.value || ', ' || excluded.value;
`,
};
