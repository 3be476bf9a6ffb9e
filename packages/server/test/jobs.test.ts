import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb } from '../src/db/driver.js';
import { getJobRuns, RUNS_KEPT } from '../src/db/queries/job-runs.js';
import { type Job, JobRunner, previousScheduled, runJob } from '../src/jobs/jobs.js';
import { describeEachDb } from './databases.js';

const silent = { info() {}, warn() {}, error() {} };

describeEachDb('jobs: one way to run background work', (ctx) => {
  let second = ctx.db;
  beforeAll(async () => {
    if (ctx.kind === 'postgresql') second = await openDb({ databaseUrl: ctx.url });
    else second = ctx.db;
  });
  afterAll(async () => {
    if (second !== ctx.db) await second.close();
  });

  it('records each run: started, finished, status, counts, error', async () => {
    const ok: Job<{ sent: number }> = { name: 'test-ok', run: async () => ({ sent: 3 }) };
    const outcome = await runJob(ctx.db, ok, silent);
    expect(outcome.status).toBe('done');
    const failing: Job = {
      name: 'test-fail',
      run: async () => {
        throw new Error('источник недоступен');
      },
    };
    expect((await runJob(ctx.db, failing, silent)).status).toBe('failed');
    const [done] = await getJobRuns(ctx.db, 'test-ok');
    expect(done).toMatchObject({ status: 'done', counts: { sent: 3 }, error: null });
    expect(done.finishedAt).not.toBeNull();
    const [failed] = await getJobRuns(ctx.db, 'test-fail');
    expect(failed).toMatchObject({ status: 'failed', counts: null, error: 'источник недоступен' });
  });

  it('keeps the last RUNS_KEPT runs of a job, not every poll of a year', async () => {
    await ctx.db.query(
      `insert into job_run (job, status, finished_at) select 'test-prune', 'done', now() from generate_series(1, $1::int)`,
      [RUNS_KEPT + 100],
    );
    await runJob(ctx.db, { name: 'test-prune', run: async () => ({}) }, silent);
    const [{ n, newest }] = await ctx.db.query<{ n: number; newest: number }>(
      `select count(*)::int as n, max(id)::int as newest from job_run where job = 'test-prune'`,
    );
    expect(n).toBe(RUNS_KEPT);
    expect((await getJobRuns(ctx.db, 'test-prune', 1))[0].id).toBe(newest);
  });

  it('a run a crash left running is marked interrupted, and the next run is told to resume it', async () => {
    await ctx.db.query(`insert into job_run (job, status) values ('test-resume', 'running')`);
    let told = -1;
    const job: Job = {
      name: 'test-resume',
      run: async (c) => {
        told = c.interrupted;
        return {};
      },
    };
    expect((await runJob(ctx.db, job, silent)).status).toBe('done');
    expect(told).toBe(1);
    const runs = await getJobRuns(ctx.db, 'test-resume');
    expect(runs.map((r) => r.status)).toEqual(['done', 'interrupted']);
  });

  it('a job with a period runs once per period, across processes at the same moment', async () => {
    let runs = 0;
    const daily: Job = {
      name: 'test-daily',
      periodOf: (now) => now.toISOString().slice(0, 10),
      run: async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 50));
        return {};
      },
    };
    const at = new Date('2026-11-20T06:00:00Z');
    const outcomes = await Promise.all([
      runJob(ctx.db, daily, silent, at),
      runJob(second, daily, silent, at),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['done', 'skipped']);
    expect(runs).toBe(1);
    expect((await runJob(ctx.db, daily, silent, new Date('2026-11-21T06:00:00Z'))).status).toBe('done');
    expect(runs).toBe(2);
  });

  it('the runner runs on a trigger and on an interval, one run at a time, and stops', async () => {
    const runner = new JobRunner(ctx.db, silent);
    let running = 0;
    let most = 0;
    let runs = 0;
    runner.add({
      name: 'test-runner',
      schedule: { everySeconds: 1 },
      run: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
        runs++;
        return { runs };
      },
    });
    runner.trigger('test-runner');
    runner.trigger('test-runner');
    await runner.run('test-runner');
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toBeGreaterThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(most).toBe(1);
    await runner.stop();
    const after = runs;
    await new Promise((r) => setTimeout(r, 1_200));
    expect(runs).toBe(after);
  });

  it('a cron job whose last scheduled time passed unrun is caught up once at start', async () => {
    const schedule = { cron: '0 6 * * *', timezone: 'Europe/Moscow' };
    const last = previousScheduled(schedule, new Date())!;
    expect(last.getTime()).toBeLessThanOrEqual(Date.now());
    const periodOf = (now: Date) => now.toISOString().slice(0, 10);
    let runs = 0;
    const job: Job = {
      name: 'test-catch-up',
      schedule,
      periodOf,
      catchUp: true,
      run: async () => ({ n: ++runs }),
    };
    const first = new JobRunner(ctx.db, silent);
    first.add(job);
    await new Promise((r) => setTimeout(r, 300));
    await first.stop();
    expect(runs).toBe(1);
    expect((await getJobRuns(ctx.db, 'test-catch-up'))[0].period).toBe(periodOf(last));
    // started again the same day: the period is done, nothing to catch up
    const again = new JobRunner(ctx.db, silent);
    again.add(job);
    await new Promise((r) => setTimeout(r, 300));
    await again.stop();
    expect(runs).toBe(1);
  });
});
