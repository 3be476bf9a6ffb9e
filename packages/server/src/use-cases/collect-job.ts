import type { FetchOptions } from '../collect/fetch.js';
import { type CollectReport, reportText } from '../collect/report.js';
import { collectSchedule } from '../collect/schedule.js';
import { listSources } from '../db/queries/sources.js';
import type { Job } from '../jobs/jobs.js';
import { todayIn } from '../lib/days.js';
import { collectDay } from './collect.js';
import type { Host } from './host.js';

export const COLLECT_JOB = 'collect';

/**
 * The daily collection in `serve` (DESIGN §10.8): at COLLECT_AT in COLLECT_TZ, once a day across instances
 * (the job's lock and its period), a missed time made up once at start: `collectDay` (use-cases/collect.ts),
 * which audits and follows the imports as any collection; failing sources and partial lists are logged and
 * sent to the admin chat.
 */
export function collectJob(options: {
  host: Host;
  collectAt: string;
  timezone: string;
  fetch?: FetchOptions;
  notify?: (text: string) => Promise<void>;
}): Job<CollectReport> {
  return {
    name: COLLECT_JOB,
    schedule: collectSchedule(options.collectAt, options.timezone),
    periodOf: (now) => todayIn(options.timezone, now),
    catchUp: true,
    async run({ db, log }) {
      const report = await collectDay(
        options.host,
        await listSources(db),
        todayIn(options.timezone),
        options.fetch,
      );
      const text = reportText(report);
      if (text) {
        log.warn({ failing: report.failing, partial: report.partial }, text);
        await options
          .notify?.(text)
          .catch((error) => log.error({ err: error }, 'сбор: отчёт в Телеграм не отправлен'));
      } else log.info({ date: report.date, sources: report.sources }, 'сбор: все источники собраны');
      return report;
    },
  };
}
