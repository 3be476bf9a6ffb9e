/** Migration 19, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 19,
  name: 'avg ppm by payment term kept per snapshot day (§11.4)',
  sql: `
-- a row a snapshot day whose active flats price a payment term: per status, each term's flats, sum of its
-- prices and of their areas in hundredths of m² (analytics/offer-terms.ts); written by the import
create table offer_day (
  project_id int not null references project(id),
  day date not null,
  body text not null,
  primary key (project_id, day)
);
`,
};
