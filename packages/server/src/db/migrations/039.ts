/** Migration 39, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 39,
  name: 'the rank months found by the day they reach (a ranking reads only those that reach its period)',
  sql: `
-- «Рынок»'s ranking reads a project's months that reach into its period (reach >= its first day read,
-- queries/kept-pace.ts: rankMonthsReaching). By the primary key alone every month of the project was fetched from
-- the heap (1.4 KB each) and most dropped by the filter: at 5,000 projects, 13 months each, 65,000 rows for the
-- 20,000 a 90-day ranking reads. With reach in an index the others are never fetched.
create index rank_month_reach on rank_month (project_id, status, reach);
`,
};
