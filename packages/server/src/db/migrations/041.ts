/** Migration 41, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 41,
  name: 'the pace summaries laid out by filter (a round reads one filter of every project)',
  sql: `
-- A round of the market's spans made whole reads one filter's summaries of every project (5,000 projects: 68 MB).
-- Written project by project, each filter's parts lay spread over pages that hold all eight filters' (the table
-- and its TOAST), and a cold read of one filter took ~1–2.3 s at the reference market; laid out by filter
-- (CLUSTER, again after each bulk load: db/migrate.ts analyzeAfterBulkLoad) it took 0.3–0.36 s.
create index pace_summary_by_filter on pace_summary (status, rooms, project_id, part);
cluster pace_summary using pace_summary_by_filter;
`,
};
