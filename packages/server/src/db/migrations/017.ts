/** Migration 17, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 17,
  name: 'where a project is: region, city, district, address, coordinates, stations (§11.3)',
  sql: `
-- The place shown is each field's hand edit if any, else the sources' latest non-empty value; both are kept
-- (place_source: {field: {value, date}}; place_edit: {field: value}) so an import never overrides a hand
-- edit and a hand edit taken back shows the sources' value again (ingest/place.ts).
alter table project add column region text;
alter table project add column district text;
alter table project add column address text;
alter table project add column latitude double precision;
alter table project add column longitude double precision;
alter table project add column stations jsonb not null default '[]';
alter table project add column place_source jsonb not null default '{}';
alter table project add column place_edit jsonb not null default '{}';
-- a place's change is a change of the market's data (its ETag, the unions of its places)
alter table project add column place_version int not null default 0;
`,
};
