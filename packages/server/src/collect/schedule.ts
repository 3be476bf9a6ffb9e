import { Cron } from 'croner';

/** The daily collection time (COLLECT_AT, HH:MM) as a cron expression in COLLECT_TZ (DESIGN §10.8). */
export function collectSchedule(collectAt: string, timezone: string) {
  const [h, m] = collectAt.split(':').map(Number);
  return { cron: `${m} ${h} * * *`, timezone };
}

/** When the daily collection runs next after `now`. */
export function nextCollect(collectAt: string, timezone: string, now = new Date()): Date | null {
  const s = collectSchedule(collectAt, timezone);
  return new Cron(s.cron, { timezone: s.timezone, paused: true }).nextRun(now);
}
