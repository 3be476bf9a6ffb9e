/** Migration 37, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 37,
  name: 'a project’s lots on sale on its latest list, kept by its imports (fair price, «Ниже аналогов»)',
  sql: `
-- A flat's fair price reads the lots on sale of its city's projects of its class on their latest lists
-- (DESIGN §12.4): at 5,000 projects those segments lie scattered over a year of the timeline's pages, ~600
-- pages read for a city's 16 projects (~77 ms cold). Every import of a project keeps them here as one row,
-- its segments active on its latest list's day (JSON arrays: flat, days, record columns; TOAST compresses
-- them). A project with no row yet (imported before this migration) is read from the timeline as before.
create table active_latest (
  project_id integer primary key references project(id),
  day date not null,
  body text not null
);
`,
};
