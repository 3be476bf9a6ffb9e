/** Migration 8, of the second stage (DESIGN §10). Append only: a released migration is never edited. */
export default {
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
};
