/** Migration 2, of the product as first built. Append only: a released migration is never edited. */
export default {
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
};
