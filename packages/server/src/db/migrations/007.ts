/** Migration 7, of the second stage (DESIGN §10). Append only: a released migration is never edited. */
export default {
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
};
