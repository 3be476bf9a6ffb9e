/** Migration 30, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 30,
  name: 'a project’s class with its origin: set by hand, the registry’s, else by the region’s price bands (§12.3)',
  sql: `
-- hand_class: set by an admin (wins); registry_class: the class of most of the project's registry objects'
-- flats, kept by the registry's import and matching (use-cases/registry.ts); class_version: counted up on
-- either change, so the market's held list of projects is read again
alter table project add column hand_class text;
alter table project add column registry_class text;
alter table project add column class_version int not null default 0;
-- the registry's classes of the projects already matched: the next open recomputes them
insert into app_meta (key, value)
  select 'registry_class_needed', 'классы проектов по реестру' where exists (select 1 from registry_object)
  on conflict (key) do nothing;
`,
};
