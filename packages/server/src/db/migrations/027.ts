/** Migration 27, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 27,
  name: 'the market’s pace and index kept per scope and filter (use-cases/market-spans.ts, §11.1)',
  sql: `
-- a union's whole span of pace, index and avg ppm (analytics/pace-union.ts: UnionSpan), gzipped JSON, for
-- the whole market and every developer and place large enough (read/market-scopes.ts); \`members\` names the
-- members' data versions it was made from: a reader takes it only while they are the same
create table market_span (
  scope text not null,
  status text not null,
  rooms text not null,
  members text not null,
  body bytea not null,
  primary key (scope, status, rooms)
);
alter table market_span alter column body set storage external;
`,
};
