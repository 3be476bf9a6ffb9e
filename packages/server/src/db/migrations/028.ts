/** Migration 28, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 28,
  name: 'the kept pace summaries stored as columns, not JSON (db/pace-form.ts)',
  sql: `
-- the bodies are rewritten by the next open (use-cases/rebuild.ts: nothing recomputed, each part read and
-- written again in the columnar form); until then they are read in either form
insert into app_meta (key, value)
  select 'pace_form_needed', 'сводки темпа продаж в столбцах' where exists (select 1 from pace_summary)
  on conflict (key) do nothing;
`,
};
