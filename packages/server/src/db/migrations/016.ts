/** Migration 16, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 16,
  name: "a content hash on each month of the ranking's form (§11.1)",
  sql: `
-- An import rewrites only the months whose bytes changed, and a reader holding a project's months reads
-- again only those (db/kept-rank.ts): a new day changes one month of each project, not its half year.
alter table rank_month add column hash text;
update rank_month set hash = md5(body);
alter table rank_month alter column hash set not null;
`,
};
