/** Migration 1, of the product as first built. Append only: a released migration is never edited. */
export default {
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
};
