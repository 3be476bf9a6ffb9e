/** Migration 29, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 29,
  name: 'the state registry: objects, their states by day as changes, the raw answers, hand links (§12.3)',
  sql: `
-- an object of the registry (a building with a project declaration): its latest state (every fact any day
-- stated, the latest value of each: registry/state.ts), the days it was first and last seen, and the
-- project (and building key) it is matched to (registry/match.ts); match: 'auto', 'hand' or 'none'
create table registry_object (
  obj_id int primary key,
  first_day date not null,
  last_day date not null,
  state jsonb not null,
  project_id int references project (id) on delete set null,
  building text,
  match text not null default 'none'
);
create index registry_object_project on registry_object (project_id);
-- the object's state on each day it changed (from that day on, until the next row): {eff, list, detail,
-- sales}, each kind's facts as its answers stated them and the effective facts (registry/state.ts)
create table registry_state (
  obj_id int not null references registry_object (obj_id) on delete cascade,
  day date not null,
  state jsonb not null,
  primary key (obj_id, day)
);
-- each answer about an object as it came (its list entry, detail or sales; gzipped JSON), on the days it
-- differed from the one before: the states are made again from these by \`rebuild\`
create table registry_raw (
  obj_id int not null,
  kind text not null,
  day date not null,
  hash text not null,
  body bytea not null,
  primary key (obj_id, kind, day)
);
-- the days each kind of answer about an object came (days since 1970-01-01, in order): which days restated
-- the answer before them, so that a day that comes late is put between the right ones (derive/registry.ts)
create table registry_seen (
  obj_id int not null,
  kind text not null,
  days int[] not null,
  primary key (obj_id, kind)
);
-- the days of the registry imported: what came and what was refused (each refusal names its object and field)
create table registry_day (
  day date primary key,
  objects int not null,
  refused jsonb not null default '[]',
  imported_at timestamptz not null default now()
);
-- a hand link (project_id) or unlink (null) of an object: wins over the automatic match
create table registry_link (
  obj_id int primary key,
  project_id int references project (id) on delete cascade,
  at timestamptz not null default now()
);
`,
};
