/** Migration 34, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 34,
  name: 'the hedonic index’s links kept per segment and rooms group (DESIGN §12.4, use-cases/hedonic-links.ts)',
  sql: `
-- A segment's monthly links (analytics/hedonic-index.ts: HedonicLink), every month it has a fit, as
-- little-endian doubles, ten a link; for the whole market and every region, city, district and class large
-- enough (read/market-scopes.ts), each rooms group. \`members\` names the members' data versions it was made
-- from: a reader takes it only while they are the same.
create table hedonic_link (
  scope text not null,
  rooms text not null,
  members text not null,
  body bytea not null,
  primary key (scope, rooms)
);
alter table hedonic_link alter column body set storage external;
`,
};
