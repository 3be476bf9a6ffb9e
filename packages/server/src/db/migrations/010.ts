/** Migration 10, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
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
};
