/** Migration 9, of the second stage (DESIGN §10). Append only: a released migration is never edited. */
export default {
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
};
