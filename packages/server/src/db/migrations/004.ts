/** Migration 4, of the product as first built. Append only: a released migration is never edited. */
export default {
  id: 4,
  name: 'background jobs: one record per run (started, finished, status, counts, error)',
  sql: `
-- A run of a named job (the Telegram publisher, collection, alerts). A run left 'running' by a process
-- that died is marked 'interrupted' by the next run of the same job, which resumes the work.
create table job_run (
  id serial primary key,
  job text not null,
  -- the schedule's period the run is for (e.g. a day), when the job runs once per period
  period text,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  status text not null default 'running',
  counts text,
  error text
);
create index job_run_job on job_run (job, id);
`,
};
