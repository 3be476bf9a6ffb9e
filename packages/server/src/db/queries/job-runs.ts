import type { Db } from '../driver.js';

export type JobRunStatus = 'running' | 'done' | 'failed' | 'interrupted';

export interface JobRun {
  id: number;
  job: string;
  period: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: JobRunStatus;
  counts: Record<string, unknown> | null;
  error: string | null;
}

/** Runs kept per job: a job polled every minute would otherwise add 1,440 rows a day. */
export const RUNS_KEPT = 500;

/**
 * Marks the job's runs still 'running' as interrupted: called under the job's lock, so their process is
 * gone (PostgreSQL frees a dead session's advisory lock; on PGlite the lock lives in the one process).
 * Returns how many there were.
 */
export async function interruptStaleRuns(db: Db, job: string): Promise<number> {
  const rows = await db.query(
    `update job_run set status = 'interrupted', finished_at = now(),
       error = coalesce(error, 'процесс остановлен во время работы') where job = $1 and status = 'running'
     returning id`,
    [job],
  );
  return rows.length;
}

export async function startRun(db: Db, job: string, period: string | null): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    'insert into job_run (job, period) values ($1, $2) returning id',
    [job, period],
  );
  return row.id;
}

export async function finishRun(
  db: Db,
  id: number,
  status: Exclude<JobRunStatus, 'running'>,
  counts: object | null,
  error: string | null,
): Promise<void> {
  await db.query(
    `update job_run set status = $2, finished_at = now(), counts = $3, error = $4 where id = $1`,
    [id, status, counts ? JSON.stringify(counts) : null, error],
  );
  await db.query(
    `delete from job_run where job = (select job from job_run where id = $1)
       and id <= (select id from job_run where job = (select job from job_run where id = $1)
                  order by id desc offset $2 limit 1)`,
    [id, RUNS_KEPT],
  );
}

/** Whether the job already ran to the end for this period (a day's collection, say). */
export async function periodDone(db: Db, job: string, period: string): Promise<boolean> {
  const rows = await db.query(
    'select 1 from job_run where job = $1 and period = $2 and status = $3 limit 1',
    [job, period, 'done'],
  );
  return rows.length > 0;
}

/** The job's runs, newest first. */
export async function getJobRuns(db: Db, job: string, limit = 20): Promise<JobRun[]> {
  const rows = await db.query<{
    id: number;
    job: string;
    period: string | null;
    started_at: string;
    finished_at: string | null;
    status: JobRunStatus;
    counts: string | null;
    error: string | null;
  }>(
    `select id, job, period, started_at::text, finished_at::text, status, counts, error from job_run
     where job = $1 order by id desc limit $2`,
    [job, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    job: r.job,
    period: r.period,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    status: r.status,
    counts: r.counts ? JSON.parse(r.counts) : null,
    error: r.error,
  }));
}
