import { Cron } from 'croner';
import type { Db } from '../db/driver.js';
import { finishRun, interruptStaleRuns, periodDone, startRun } from '../db/queries/job-runs.js';

export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** When a job runs by itself in `serve`: every N seconds, or on a cron expression in a time zone. */
export type JobSchedule = { everySeconds: number } | { cron: string; timezone?: string };

export interface JobContext {
  db: Db;
  log: JobLog;
  /** the run's record */
  runId: number;
  /** runs of this job a crash left unfinished, now marked interrupted: the work to resume */
  interrupted: number;
}

/**
 * A named piece of background work (the Telegram publisher, collection, alerts): what it does, when, and
 * whether it runs once per period (a day's collection) rather than whenever asked (a publisher poll).
 */
export interface Job<R extends object = object> {
  name: string;
  schedule?: JobSchedule;
  /** the period a run at `now` is for; a period with a finished run is not run again (other instances, catch-up) */
  periodOf?: (now: Date) => string;
  /** at start, run once when the last scheduled time passed without a finished run (cron schedules) */
  catchUp?: boolean;
  run(ctx: JobContext): Promise<R>;
}

export type JobOutcome<R> =
  | { status: 'done'; runId: number; result: R }
  | { status: 'failed'; runId: number; error: unknown }
  | { status: 'skipped'; reason: string };

/**
 * Runs a job once across every process on this database: under its lock (a PostgreSQL advisory lock, or
 * in-process on PGlite), with a run record (started, finished, status, counts, error). Runs a crash left
 * 'running' are marked interrupted first and counted in the context, so the job resumes their work. A job
 * with a period skips a period already done.
 */
export async function runJob<R extends object>(
  db: Db,
  job: Job<R>,
  log: JobLog,
  now: Date = new Date(),
): Promise<JobOutcome<R>> {
  return db.withLock(`cena-metra:job:${job.name}`, async () => {
    const period = job.periodOf?.(now) ?? null;
    if (period && (await periodDone(db, job.name, period)))
      return { status: 'skipped' as const, reason: `период ${period} уже выполнен` };
    const interrupted = await interruptStaleRuns(db, job.name);
    if (interrupted) log.warn({ job: job.name, interrupted }, 'задача: продолжаю прерванную работу');
    const runId = await startRun(db, job.name, period);
    try {
      const result = await job.run({ db, log, runId, interrupted });
      await finishRun(db, runId, 'done', result, null);
      return { status: 'done' as const, runId, result };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await finishRun(db, runId, 'failed', null, message.slice(0, 2000)).catch(() => {});
      log.error({ job: job.name, err: error }, 'задача завершилась ошибкой');
      return { status: 'failed' as const, runId, error };
    }
  });
}

/** One run of a job as `runJob` makes it, its result returned; throws what it failed with (or was skipped for). */
export async function runJobOnce<R extends object>(db: Db, job: Job<R>, log: JobLog): Promise<R> {
  const outcome = await runJob(db, job, log);
  if (outcome.status === 'failed') throw outcome.error;
  if (outcome.status === 'skipped') throw new Error(outcome.reason);
  return outcome.result;
}

/** The last time a cron schedule fired at or before `now`. */
export function previousScheduled(schedule: { cron: string; timezone?: string }, now: Date): Date | null {
  const cron = new Cron(schedule.cron, { timezone: schedule.timezone, paused: true });
  return cron.previousRuns(1, now)[0] ?? null;
}

/**
 * The background jobs of one process: each on its schedule (croner for cron expressions, a timer for
 * intervals), asked to run after an event (`trigger`), one run of a job at a time in this process and,
 * through `runJob`, across processes.
 */
export class JobRunner {
  private readonly jobs = new Map<string, { job: Job; chain: Promise<unknown>; stop: () => void }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: JobLog,
  ) {}

  /** Schedules a job; with `catchUp`, a scheduled time missed while no process ran is made up once now. */
  add(job: Job): void {
    let stop = () => {};
    const schedule = job.schedule;
    if (schedule && 'everySeconds' in schedule) {
      const timer = setInterval(() => void this.run(job.name), schedule.everySeconds * 1000);
      timer.unref();
      stop = () => clearInterval(timer);
    } else if (schedule) {
      const cron = new Cron(
        schedule.cron,
        { timezone: schedule.timezone, protect: true, unref: true },
        () => {
          void this.run(job.name);
        },
      );
      stop = () => cron.stop();
    }
    this.jobs.set(job.name, { job, chain: Promise.resolve(), stop });
    if (job.catchUp && schedule && 'cron' in schedule) void this.catchUp(job, schedule);
  }

  private async catchUp(job: Job, schedule: { cron: string; timezone?: string }) {
    const last = previousScheduled(schedule, new Date());
    if (!last) return;
    const period = job.periodOf?.(last);
    if (period && (await periodDone(this.db, job.name, period).catch(() => true))) return;
    this.log.info({ job: job.name, missed: last.toISOString() }, 'задача: навёрстываю пропущенный запуск');
    await this.run(job.name, last);
  }

  /** Runs the job now (after the run in progress, if any); resolves with its outcome. */
  run(name: string, at?: Date): Promise<JobOutcome<object> | null> {
    const entry = this.jobs.get(name);
    if (!entry) throw new Error(`unknown job ${name}`);
    const next = entry.chain.then(async () => {
      if (this.stopped) return null;
      try {
        return await runJob(this.db, entry.job, this.log, at ?? new Date());
      } catch (error) {
        // the lock or the run record could not be written (database down): the next run tries again
        this.log.error({ job: name, err: error }, 'задача не запущена');
        return null;
      }
    });
    entry.chain = next;
    return next;
  }

  /** Runs the job after `delayMs` (e.g. once a day's imports have settled). */
  trigger(name: string, delayMs = 0): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.run(name);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Stops the schedules and waits for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    for (const entry of this.jobs.values()) entry.stop();
    await Promise.all([...this.jobs.values()].map((e) => e.chain));
  }
}
