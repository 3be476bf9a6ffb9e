/**
 * The migrations of the second stage (DESIGN §10): building keys, status in the cube, sources, pace
 * summaries, watchlists. Append only (db/migrations.ts).
 */
export const STAGE_2: { id: number; name: string; sql: string }[] = [
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
];
