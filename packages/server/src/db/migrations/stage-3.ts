/**
 * The migrations of the third stage (DESIGN §11): derived data kept by the import that changes them.
 * Append only (db/migrations.ts).
 */
export const STAGE_3: { id: number; name: string; sql: string }[] = [
  {
    id: 10,
    name: 'derived data kept by the import that changes them (DESIGN §11.1)',
    sql: `
-- The stats series of each snapshot day, as the response writes it: per status, the five room groups'
-- points (JSON after the date, empty for a group without flats) and the day's counts, \x01 between them.
-- It replaces the cube of cells: the stats read what they send, nothing is decoded on a first request.
drop table daily_cube;
create table series_day (
  project_id int not null,
  day date not null,
  flats_count int not null,
  series_all text not null,
  series_available text not null,
  primary key (project_id, day)
);
-- rendered text is read whole by every stats request: kept uncompressed (pglz only costs time here)
alter table series_day alter column series_all set storage external;
alter table series_day alter column series_available set storage external;

-- Pace summaries are written by the import (always current): no version to compare.
alter table pace_summary drop column data_version;

-- The project's last snapshot day as the dashboard first shows it, per status: the summary table (§4.2)
-- and the ppm distribution (§10.5), as response JSON.
create table project_latest (
  project_id int not null references project (id),
  status text not null,
  day date not null,
  summary text not null,
  distribution text not null,
  primary key (project_id, status)
);

insert into app_meta (key, value)
  select 'rebuild_needed', 'производные данные хранятся' where exists (select 1 from flat_observation)
  on conflict (key) do update set value = app_meta.value || ', ' || excluded.value;
`,
  },
  {
    id: 11,
    name: 'first presences kept on the flat (DESIGN §11.1)',
    sql: `
-- A flat's first presence (§10.5: days on market, stock age, the chessboard, «снова в продаже»): kept by the
-- import (derive/first-seen.ts), filled here from the observations by the same rule.
alter table flat add column first_seen date;
update flat f set first_seen = o.first
  from (select flat_id, min(snapshot_date) as first from flat_observation where present group by flat_id) o
  where o.flat_id = f.id;
`,
  },
  {
    id: 12,
    name: 'a building’s flats found by index (the chessboard, DESIGN §11.1)',
    sql: `
-- The chessboard reads one building: its list of buildings, the first one selling and its flats' segments are
-- index lookups, not a scan of the project's whole timeline.
create index flat_segment_building on flat_segment (project_id, building, flat_id);
`,
  },
  {
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
  },
  {
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
  },
  {
    id: 15,
    name: 'the chessboard a project first shows, kept by its import (§11.1)',
    sql: `
-- The last day's board of the first building on sale, as the chessboard's response (gzipped JSON,
-- derive/chess.ts): a first look reads one row, not the building's timeline. Written by each project's
-- next import (or \`cena-metra rebuild\`); until then the chessboard reads the timeline as before.
create table chess_latest (
  project_id int primary key,
  body bytea not null
);
alter table chess_latest alter column body set storage external;
`,
  },
  {
    id: 16,
    name: "a content hash on each month of the ranking's form (§11.1)",
    sql: `
-- An import rewrites only the months whose bytes changed, and a reader holding a project's months reads
-- again only those (db/kept-rank.ts): a new day changes one month of each project, not its half year.
alter table rank_month add column hash text;
update rank_month set hash = md5(body);
alter table rank_month alter column hash set not null;
`,
  },
  {
    id: 17,
    name: 'where a project is: region, city, district, address, coordinates, stations (§11.3)',
    sql: `
-- The place shown is each field's hand edit if any, else the sources' latest non-empty value; both are kept
-- (place_source: {field: {value, date}}; place_edit: {field: value}) so an import never overrides a hand
-- edit and a hand edit taken back shows the sources' value again (ingest/place.ts).
alter table project add column region text;
alter table project add column district text;
alter table project add column address text;
alter table project add column latitude double precision;
alter table project add column longitude double precision;
alter table project add column stations jsonb not null default '[]';
alter table project add column place_source jsonb not null default '{}';
alter table project add column place_edit jsonb not null default '{}';
-- a place's change is a change of the market's data (its ETag, the unions of its places)
alter table project add column place_version int not null default 0;
`,
  },
  {
    id: 18,
    name: "prices as offered: a flat's record carries the developer's offer (§11.4)",
    sql: `
-- old price, prices by payment term, promo, booking fee, plan: one canonical JSON text, part of the record
-- (a row is written when it changes, as for a price); null when a list offers nothing beside the price
alter table flat_observation add column offer text;
alter table flat_segment add column offer text;
alter table flat_event add column offer text;
`,
  },
  {
    id: 19,
    name: 'avg ppm by payment term kept per snapshot day (§11.4)',
    sql: `
-- a row a snapshot day whose active flats price a payment term: per status, each term's flats, sum of its
-- prices and of their areas in hundredths of m² (analytics/offer-terms.ts); written by the import
create table offer_day (
  project_id int not null references project(id),
  day date not null,
  body text not null,
  primary key (project_id, day)
);
`,
  },
  {
    id: 20,
    name: "the developer's promotions counted in the daily summaries (§11.4)",
    sql: `
-- PROMO_STARTED / PROMO_ENDED of a project's day, as its other events are counted (derive/timeline.ts);
-- the days already summarised are counted here from the kept events
alter table summary_project add column promo_started int not null default 0;
alter table summary_project add column promo_ended int not null default 0;
update summary_project sp set promo_started = e.started, promo_ended = e.ended
from (
  select project_id, day, count(*) filter (where kind = 'PROMO_STARTED')::int as started,
    count(*) filter (where kind = 'PROMO_ENDED')::int as ended
  from flat_event where kind in ('PROMO_STARTED', 'PROMO_ENDED') group by project_id, day
) e
where sp.project_id = e.project_id and sp.date = e.day;
`,
  },
  {
    id: 21,
    name: 'a team: roles, disabled users, one-time links, sessions of devices, the audit log (§11.5)',
    sql: `
-- the first user is the admin, the rest analysts
alter table app_user add column role text not null default 'analyst'
  check (role in ('admin', 'analyst', 'viewer'));
update app_user set role = 'admin' where id = (select min(id) from app_user);
-- a disabled user cannot sign in and has no sessions
alter table app_user add column disabled_at timestamptz;
-- a session is one device: what it said it is, from where, and an id to end it by
alter table session add column id bigserial;
create unique index session_id_key on session (id);
alter table session add column user_agent text;
alter table session add column address text;
-- a one-time link that sets a new user's password (24 h), stored as the SHA-256 of its token
create table user_invite (
  token_hash text primary key,
  user_id int not null references app_user (id) on delete cascade,
  expires_at timestamptz not null
);
-- who did what, when, from where, before → after; never changed: no API writes here but the actions
-- themselves, and the database refuses updates and deletes (kept for good, at least the year §11.5 asks)
create table audit_log (
  id bigserial primary key,
  at timestamptz not null default now(),
  actor_id int,
  actor text not null,
  address text,
  action text not null,
  target text not null,
  before jsonb,
  after jsonb
);
create index audit_log_at on audit_log (at);
create function audit_log_frozen() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log: записи журнала не изменяются и не удаляются';
end
$$;
create trigger audit_log_no_change before update or delete on audit_log
  for each row execute function audit_log_frozen();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_frozen();
`,
  },
  {
    id: 22,
    name: "each project's discounts on its last day kept beside its summary table (§4.3)",
    sql: `
-- per period (DAY, WEEK, MONTH, YEAR) and basis (history, developer): active and discounted flats, the
-- largest and the mean discount, avg ppm — what the market's discounts table reads for each project, JSON;
-- null until the project's next import (or cena-metra rebuild): read from the flats then, as before
alter table project_latest add column discounts text;
`,
  },
  {
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
  },
  {
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
  },
];
