/** Migration 33, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 33,
  name: 'the hedonic model’s sums of each project and month (DESIGN §12.4), kept by the import',
  sql: `
-- A project's observations of a month (each flat on the month's last day with data) as the model's sufficient
-- statistics (analytics/hedonic.ts): the count, Σ price, Σ area and Σ z·z' of (1, controls, ln ppm) as
-- little-endian doubles. A segment's window of 13 months is fitted from its projects' rows alone.
create table hedonic_month (
  project_id int not null references project (id),
  month date not null,
  body bytea not null,
  primary key (project_id, month)
);
alter table hedonic_month alter column body set storage external;

insert into app_meta (key, value)
  select 'hedonic_months_needed', 'суммы гедонической модели' where exists (select 1 from flat_segment)
  on conflict (key) do update set value = excluded.value;
`,
};
