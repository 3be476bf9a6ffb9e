/** Migration 40, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 40,
  name: 'the pace summaries’ tails and the days each change moves (the market’s spans brought up to date from them)',
  sql: `
-- a project's pace summary per filter from the snapshot 60 to 120 days before its last day on, its
-- first snapshot holding the stock's first presences whole (analytics/pace-tail.ts); \`whole\` when it
-- begins at the project's first snapshot (it serves a sweep from any day)
create table pace_tail (
  project_id integer not null references project(id),
  status text not null,
  rooms text not null,
  whole boolean not null,
  body bytea not null,
  primary key (project_id, status, rooms)
);
-- a tail (~2 KB) in its row, not in the TOAST table: a round reads 5,000 of a filter, and half of them out of line
-- cost an index probe and a fetch more each (~0.1 s of the whole market's read)
alter table pace_tail set (toast_tuple_target = 8160);
-- each import's change of a project's pace summaries made on top of its data version \`version\`: the first day
-- whose points it may move (derive/pace.ts); a kept span made from version v is brought up to date from the
-- least day of the changes on top of v and later (use-cases/market-spans.ts)
create table pace_change (
  project_id integer not null references project(id),
  version integer not null,
  from_day date not null,
  primary key (project_id, version)
);
-- the members' ids and data versions a span was made from (Int32 pairs), null for a span made before
alter table market_span add column versions bytea;
-- the tails are made from the kept summaries by the next open (use-cases/rebuild.ts)
insert into app_meta (key, value)
  select 'pace_tails_needed', 'хвосты сводок темпа продаж' where exists (select 1 from pace_summary)
  on conflict (key) do nothing;
`,
};
