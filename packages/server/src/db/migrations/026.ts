/** Migration 26, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 26,
  name: 'the stats series also kept in columns, as the web asks for them (db/kept-columns.ts, §12.2)',
  sql: `
-- each month's series in columns beside the seed's form: the web's answer joins them, reading no number
alter table series_month add column columns_all text, add column columns_available text;
alter table series_month alter column columns_all set storage external,
  alter column columns_available set storage external;
-- the months kept before are given their columns at the next open (derive/series.ts), nothing recomputed
insert into app_meta (key, value)
  select 'series_columns_needed', 'ряды статистики столбцами' where exists (select 1 from series_month)
  on conflict (key) do nothing;
`,
};
