/** Migration 23, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 23,
  name: 'the stats series kept laid out as sent, as base64 text (db/kept-series.ts)',
  sql: `
-- kept as base64 text: read as it is, where a bytea column is encoded or parsed on every read (on PGlite
-- in its WebAssembly engine and in JavaScript, most of a first stats request)
-- (the storage set in the same statement: a type change alone rewrites the values compressed, as text's
-- default storage does)
alter table series_month
  alter column series_all type text using encode(series_all, 'base64'),
  alter column series_all set storage external,
  alter column series_available type text using encode(series_available, 'base64'),
  alter column series_available set storage external;
-- the months kept as days' texts are laid out again at the next open (derive/series.ts), nothing recomputed
insert into app_meta (key, value)
  select 'series_layout_needed', 'ряды статистики в виде ответа' where exists (select 1 from series_month)
  on conflict (key) do nothing;
`,
};
