/**
 * Schema migrations, applied in order at start and recorded in schema_migration. Append only: a
 * released migration is never edited. Every large table carries project_id, the Citus distribution key.
 */
export const MIGRATIONS: { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'init',
    sql: `
create table developer (
  id serial primary key,
  name text not null,
  created_at timestamptz not null default now()
);
create unique index developer_name_key on developer (lower(name));

create table project (
  id serial primary key,
  developer_id int not null references developer (id),
  name text not null,
  city text,
  created_at timestamptz not null default now(),
  -- bumped by every change of the project's data; read caches and ETags key on it
  data_version int not null default 0,
  first_snapshot_date date,
  last_snapshot_date date
);
create unique index project_name_key on project (developer_id, lower(name));

create table snapshot (
  id serial primary key,
  project_id int not null references project (id),
  date date not null,
  flats_count int not null,
  content_hash text not null,
  source text,
  imported_at timestamptz not null default now(),
  unique (project_id, date)
);

create table flat (
  id serial primary key,
  project_id int not null references project (id),
  external_id text not null,
  unique (project_id, external_id)
);

-- The source of truth, stored compactly: a row where the flat's state (presence and record) differs from
-- its state in the project's previous snapshot. present = false marks the snapshot it vanished in.
create table flat_observation (
  project_id int not null,
  flat_id int not null,
  snapshot_date date not null,
  present boolean not null,
  building text,
  section text,
  floor int,
  number text,
  rooms int,
  area double precision,
  facing text,
  settlement_date date,
  price bigint,
  base_price bigint,
  status text,
  primary key (project_id, flat_id, snapshot_date)
);

-- Derived (rebuildable): activity timeline, one row per run of days with one active record.
create table flat_segment (
  project_id int not null,
  flat_id int not null,
  start_day date not null,
  end_day date, -- null: through the project's last snapshot
  building text not null,
  section text,
  floor int,
  number text,
  rooms int not null,
  area double precision not null,
  facing text not null,
  settlement_date date,
  price bigint not null,
  base_price bigint,
  status text,
  primary key (project_id, flat_id, start_day)
);
create index flat_segment_end on flat_segment (project_id, end_day);

-- Derived: the daily cube of each snapshot day, cells encoded compactly (see analytics/cube.ts).
create table daily_cube (
  project_id int not null,
  day date not null,
  flats_count int not null,
  cells text not null,
  primary key (project_id, day)
);

-- Derived: events as known when each snapshot arrived (§4.4).
create table flat_event (
  project_id int not null,
  day date not null,
  flat_id int not null,
  kind text not null,
  building text not null,
  section text,
  floor int,
  number text,
  rooms int not null,
  area double precision not null,
  facing text not null,
  settlement_date date,
  old_price bigint,
  new_price bigint,
  change_percent double precision,
  primary key (project_id, day, flat_id)
);
create index flat_event_day on flat_event (day);

-- Summary ids are stable: a date keeps its id when its summary is rebuilt.
create table daily_summary (
  id serial primary key,
  date date not null unique,
  created_at timestamptz not null default now()
);

create table summary_project (
  date date not null,
  project_id int not null,
  is_new_project boolean not null,
  flats_count int not null,
  new_flats int not null,
  removed_flats int not null,
  price_up int not null,
  price_down int not null,
  avg_change_percent double precision,
  avg_meter_price double precision,
  primary key (date, project_id)
);

create table app_user (
  id serial primary key,
  username text not null,
  password_hash text not null,
  created_at timestamptz not null default now()
);
create unique index app_user_name_key on app_user (lower(username));

create table session (
  token_hash text primary key,
  user_id int not null references app_user (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_used_at timestamptz not null default now()
);

create table telegram_subscriber (
  chat_id bigint not null,
  project_id int,
  created_at timestamptz not null default now()
);

create table app_meta (
  key text primary key,
  value text not null
);
`,
  },
  {
    id: 2,
    name: 'telegram bot: subscriptions, the posting of each summary, deliveries',
    sql: `
-- When a summary last changed: the publisher waits for a day's imports to settle before posting it.
alter table daily_summary add column updated_at timestamptz not null default now();

-- The first schema's table was never written: replaced by one keyed by chat and project.
drop table telegram_subscriber;

-- A chat's digest subscription: project_id 0 = every project, else one project per row.
create table telegram_subscription (
  chat_id bigint not null,
  project_id int not null default 0,
  created_at timestamptz not null default now(),
  primary key (chat_id, project_id)
);

-- One row per summary ever posted (the "posted once" guard), planned with all its deliveries in one
-- transaction; done_at is set when every delivery has ended.
create table telegram_post (
  summary_id int primary key references daily_summary (id) on delete cascade,
  planned_at timestamptz not null default now(),
  done_at timestamptz
);

-- One message (split into parts) for one chat (a channel id may be @name, so text). sent_parts moves forward after each part Telegram
-- accepted, so a publisher resumed after a crash sends only the parts not yet sent.
create table telegram_delivery (
  summary_id int not null references telegram_post (summary_id) on delete cascade,
  chat_id text not null,
  is_channel boolean not null,
  parts text not null,
  sent_parts int not null default 0,
  status text not null default 'pending',
  error text,
  updated_at timestamptz not null default now(),
  primary key (summary_id, chat_id)
);
`,
  },
  {
    id: 3,
    name: 'price-changes export: indexes for reading events in the order of a price sort, page by page',
    sql: `
-- The CSV export reads events in pages after the last row sent (keyset): a page by change or by new price
-- starts from these instead of sorting every event of the range for each page.
create index flat_event_change on flat_event (change_percent) where change_percent is not null;
create index flat_event_new_price on flat_event (new_price) where new_price is not null;
-- PGlite never analyzes by itself: plan the pages with statistics
analyze flat_event;
`,
  },
  {
    id: 4,
    name: 'background jobs: one record per run (started, finished, status, counts, error)',
    sql: `
-- A run of a named job (the Telegram publisher, collection, alerts). A run left 'running' by a process
-- that died is marked 'interrupted' by the next run of the same job, which resumes the work.
create table job_run (
  id serial primary key,
  job text not null,
  -- the schedule's period the run is for (e.g. a day), when the job runs once per period
  period text,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  status text not null default 'running',
  counts text,
  error text
);
create index job_run_job on job_run (job, id);
`,
  },
  {
    id: 5,
    name: 'one building key across sources: «Корпус 31», «корп. 31», «31» are one building «31» (DESIGN §10.3)',
    sql: `
-- The key of contract/labels.ts buildingKey, in SQL: spaces collapsed, trimmed, a leading «корпус»,
-- «корп.» or «к.» in any case removed (spelled letter by letter: the database's case folding may not
-- know Cyrillic), the name kept when nothing is left.
update flat_observation set building = coalesce(nullif(btrim(regexp_replace(
    btrim(regexp_replace(building, '\\s+', ' ', 'g')),
    '^([Кк][Оо][Рр][Пп][Уу][Сс]|[Кк][Оо][Рр][Пп]\\.|[Кк]\\.)\\s*', '')), ''),
    btrim(regexp_replace(building, '\\s+', ' ', 'g')))
  where building ~ '(^\\s|\\s$|\\s\\s|^([Кк][Оо][Рр][Пп][Уу][Сс]|[Кк][Оо][Рр][Пп]\\.|[Кк]\\.))';

-- The log keeps a row only where a flat's state changes: a renamed building may have made two rows equal.
delete from flat_observation o using (
  select project_id, flat_id, snapshot_date, present, lag(present) over w as p_present,
         row_number() over w as rn,
         building, section, floor, number, rooms, area, facing, settlement_date, price, base_price, status,
         lag(building) over w as p_building,
         lag(section) over w as p_section,
         lag(floor) over w as p_floor,
         lag(number) over w as p_number,
         lag(rooms) over w as p_rooms,
         lag(area) over w as p_area,
         lag(facing) over w as p_facing,
         lag(settlement_date) over w as p_settlement_date,
         lag(price) over w as p_price,
         lag(base_price) over w as p_base_price,
         lag(status) over w as p_status
  from flat_observation window w as (partition by project_id, flat_id order by snapshot_date)
) x
where o.project_id = x.project_id and o.flat_id = x.flat_id and o.snapshot_date = x.snapshot_date
    and x.rn > 1 and x.present and x.p_present
    and x.building is not distinct from x.p_building
    and x.section is not distinct from x.p_section
    and x.floor is not distinct from x.p_floor
    and x.number is not distinct from x.p_number
    and x.rooms is not distinct from x.p_rooms
    and x.area is not distinct from x.p_area
    and x.facing is not distinct from x.p_facing
    and x.settlement_date is not distinct from x.p_settlement_date
    and x.price is not distinct from x.p_price
    and x.base_price is not distinct from x.p_base_price
    and x.status is not distinct from x.p_status;

-- Segments, cubes, events and summaries hold the old names: rebuilt at the next start (cli/context.ts).
insert into app_meta (key, value)
  select 'rebuild_needed', 'ключи корпусов' where exists (select 1 from flat_observation)
  on conflict (key) do update set value = excluded.value;
`,
  },
  {
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
  },
  {
    id: 7,
    name: 'sources of price lists collected by schedule, and their runs (DESIGN §10.8)',
    sql: `
-- A developer's price list at a URL: its kind (reader), optional request headers (JSON object), the
-- developer and project it is for when the list does not say, and whether it is collected.
create table source (
  id serial primary key,
  name text not null,
  kind text not null,
  url text not null,
  headers text not null default '{}',
  developer text,
  project text,
  enabled boolean not null default true,
  created_at timestamptz not null default now()
);
create unique index source_name on source (lower(name));

-- One collection of a source: what was asked and got (HTTP status, pages, the raw body gzipped so a reader
-- fixed later can read it again), what it gave (flats, snapshots) and how it ended.
create table source_run (
  id serial primary key,
  source_id int not null references source (id) on delete cascade,
  date date not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  status text not null default 'running',
  http_status int,
  pages int not null default 0,
  flats int not null default 0,
  snapshots int not null default 0,
  -- snapshots of the run that are partial (§10.4): reported like a failure
  partial int not null default 0,
  bytes bigint not null default 0,
  etag text,
  last_modified text,
  raw bytea,
  error text
);
create index source_run_source on source_run (source_id, id);
`,
  },
  {
    id: 8,
    name: 'pace summaries: what a union of projects reads for sales pace and the index (DESIGN §10.5–10.6)',
    sql: `
-- Derived: per project and filter (status, rooms group), the per-snapshot figures a developer's or the
-- market's pace and index are recomputed from (gzipped JSON). Current when data_version is the project's.
create table pace_summary (
  project_id int not null references project (id),
  status text not null,
  rooms text not null,
  data_version int not null,
  body bytea not null,
  primary key (project_id, status, rooms)
);
`,
  },
  {
    id: 9,
    name: 'watchlists: watched flats and segments, their alerts, Telegram linking and the daily alert messages',
    sql: `
-- What a user watches: a flat, or a segment of a project (building, rooms group, price cap, finish).
-- rules is JSON (watchRulesSchema); since is the first event day it alerts on (the day after the project's
-- latest snapshot when it was made: what happened before is history, not news).
create table watch (
  id serial primary key,
  user_id int not null references app_user (id) on delete cascade,
  kind text not null,
  project_id int not null references project (id),
  flat_id int references flat (id),
  building text,
  rooms text not null default 'all',
  max_price bigint,
  finish text,
  rules text not null,
  since date not null,
  created_at timestamptz not null default now()
);
create unique index watch_user_flat on watch (user_id, flat_id) where flat_id is not null;
create index watch_project on watch (project_id);

-- One alert per watched item and event (the unique key makes every computation idempotent).
-- digest_day: the day's Telegram message it went into. No foreign keys: checked row by row they were most
-- of the cost of a day's alerts; an item's alerts are deleted with it (watch/store.ts, auth/users.ts).
create table watch_alert (
  id bigserial primary key,
  watch_id int not null,
  user_id int not null,
  project_id int not null,
  kind text not null,
  day date not null,
  flat_id int not null,
  building text not null,
  rooms int not null,
  area double precision not null,
  old_price bigint,
  new_price bigint,
  change_percent double precision,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  digest_day date,
  unique (watch_id, day, flat_id, kind)
);
create index watch_alert_user on watch_alert (user_id, id);

-- Per project: the data version and the last event day alerts were computed from.
create table alert_cursor (
  project_id int primary key references project (id),
  data_version int not null,
  through date not null
);

-- A Telegram chat linked to an account (/start <code>), and the one-time codes that link them.
alter table app_user add column telegram_chat_id bigint;
create unique index app_user_telegram_chat on app_user (telegram_chat_id) where telegram_chat_id is not null;
create table telegram_link_code (
  code text primary key,
  user_id int not null references app_user (id) on delete cascade,
  expires_at timestamptz not null
);

-- A user's alerts of a day in one message (split into parts), planned once per (user, day) with the
-- alerts it carries, sent part by part like the summary's deliveries.
create table alert_digest (
  user_id int not null references app_user (id) on delete cascade,
  day date not null,
  chat_id bigint not null,
  parts text not null,
  sent_parts int not null default 0,
  status text not null default 'pending',
  error text,
  updated_at timestamptz not null default now(),
  primary key (user_id, day)
);
`,
  },
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
];
