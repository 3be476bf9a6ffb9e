/** Migration 14, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 14,
  name: "the ranking's form of the pace summaries kept a month to a row (§11.1–11.2)",
  sql: `
-- A ranking reads only the months that reach into its period's window (db/kept-rank.ts): the first request
-- of the whole country's market over 90 days reads about half a year of each project, not its history.
-- Stored as they are: float64 arrays hardly compress, and not inflating them is faster to read.
create table rank_month (
  project_id int not null,
  status text not null,
  month date not null,
  reach date not null,
  body bytea not null,
  primary key (project_id, status, month)
);
alter table rank_month alter column body set storage external;
alter table pace_summary drop column rank;

-- filled from the kept pace summaries at the next open (derive/pace.ts), nothing recomputed
insert into app_meta (key, value)
  select 'ranks_by_month_needed', 'сводки для рейтинга рынка по месяцам' where exists (select 1 from pace_summary)
  on conflict (key) do nothing;
`,
};
