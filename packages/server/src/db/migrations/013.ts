/** Migration 13, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 13,
  name: 'the market ranked from a compact form of the pace summaries; series kept a month a row (§11.1–11.2)',
  sql: `
-- Beside each project's pace summary of every room (the market ranks by those), the figures the ranking
-- reads as flat arrays (db/kept.ts): a fresh process holds the whole country's without parsing JSON.
alter table pace_summary add column rank bytea;

-- A project's stats series kept a month to a row, gzipped (db/kept.ts): a year of daily lists took about
-- 2 MB a project as a row a day, a tenth of that so. Filled by the rebuild this migration asks for.
drop table series_day;
create table series_month (
  project_id int not null,
  month date not null,
  days int[] not null,
  series_all bytea not null,
  series_available bytea not null,
  primary key (project_id, month)
);
-- already compressed
alter table series_month alter column series_all set storage external;
alter table series_month alter column series_available set storage external;

insert into app_meta (key, value)
  select 'rebuild_needed', 'сводки для рейтинга рынка, ряды по месяцам' where exists (select 1 from flat_observation)
  on conflict (key) do update set value = app_meta.value || ', ' || excluded.value;
`,
};
