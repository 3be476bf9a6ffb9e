/** Migration 24, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 24,
  name: 'the pace summaries kept in parts, a year each (analytics/pace-parts.ts)',
  sql: `
-- a new day rewrites its year's part, not the project's whole summary; a row kept whole until the next
-- open is the part of 1970 (it holds every snapshot) and is split there (derive/pace.ts), nothing recomputed
alter table pace_summary add column part date not null default date '1970-01-01';
alter table pace_summary alter column part drop default;
alter table pace_summary drop constraint pace_summary_pkey;
alter table pace_summary add primary key (project_id, status, rooms, part);
insert into app_meta (key, value)
  select 'pace_parts_needed', 'сводки темпа продаж по годам' where exists (select 1 from pace_summary)
  on conflict (key) do nothing;
`,
};
