/** Migration 32, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 32,
  name: 'kept pace summaries stored uncompressed (the market reads them all: pglz took two thirds of the read)',
  sql: `
-- the bodies are varints and doubles (db/pace-form.ts): pglz saved a third of their bytes and cost two thirds
-- of the time of reading a filter of the whole market (5,000 projects: 345 ms of COPY against 105 ms
-- uncompressed, docs/performance.md); the kept ones are written again so that they are stored so too
alter table pace_summary alter column body set storage external;
update pace_summary set body = body || '\\x'::bytea;
`,
};
