/**
 * The migrations of the product as first built: the records, the bot, the price-changes export, jobs.
 * Append only (db/migrations.ts).
 */
export const SEED: { id: number; name: string; sql: string }[] = [
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
];
