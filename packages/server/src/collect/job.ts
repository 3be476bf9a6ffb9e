import { audit, SCHEDULE } from '../audit/log.js';
import type { Db } from '../db/driver.js';
import type { Importer } from '../ingest/importer.js';
import type { Job } from '../jobs/jobs.js';
import { todayIn } from '../lib/days.js';
import { collectSource, type SourceRunResult } from './collector.js';
import type { FetchOptions } from './fetch.js';
import { collectSchedule } from './schedule.js';
import { listSources } from './sources.js';

export const COLLECT_JOB = 'collect';

/** Sources collected at once: a day of 200 sources in minutes, without flooding anyone's server. */
export const COLLECT_CONCURRENCY = 4;

export interface CollectReport {
  date: string;
  sources: number;
  done: number;
  unchanged: number;
  failed: number;
  flats: number;
  /** sources whose last two runs failed */
  failing: string[];
  /** sources whose list of the day is partial (§10.4) */
  partial: string[];
}

/** Sources whose last two runs failed (DESIGN §10.8: reported). */
export async function failingSources(db: Db): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select s.name from source s where s.enabled and (
       select count(*) from (select status from source_run r where r.source_id = s.id order by r.id desc limit 2) l
       where l.status = 'failed') = 2
     order by lower(s.name)`,
  );
  return rows.map((r) => r.name);
}

/** Collects every enabled source for `date`, a few at a time; the report of the day. */
export async function collectAll(
  db: Db,
  importer: Importer,
  date: string,
  options: FetchOptions = {},
  concurrency = COLLECT_CONCURRENCY,
): Promise<CollectReport> {
  const sources = (await listSources(db)).filter((s) => s.enabled);
  const results: { name: string; run: SourceRunResult }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const source = sources[next++];
      results.push({ name: source.name, run: await collectSource(db, importer, source, date, options) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, sources.length) }, worker));
  const count = (status: SourceRunResult['status']) => results.filter((r) => r.run.status === status).length;
  const report = {
    date,
    sources: sources.length,
    done: count('done'),
    unchanged: count('unchanged'),
    failed: count('failed'),
    flats: results.reduce((s, r) => s + r.run.flats, 0),
    failing: await failingSources(db),
    partial: results.filter((r) => r.run.partial > 0).map((r) => r.name),
  };
  await audit(db, SCHEDULE, 'collect.scheduled', `сбор за ${date}`, null, report);
  return report;
}

/** The report as the admin chat reads it; null when there is nothing to report. */
export function reportText(r: CollectReport): string | null {
  const lines: string[] = [];
  if (r.failing.length) lines.push(`Не собираются второй раз подряд: ${r.failing.join(', ')}.`);
  if (r.partial.length) lines.push(`Неполные списки: ${r.partial.join(', ')}.`);
  if (!lines.length) return null;
  return [
    `Сбор прайс-листов за ${r.date}: источников ${r.sources}, собрано ${r.done + r.unchanged}.`,
    ...lines,
  ].join('\n');
}

/**
 * The daily collection in `serve` (DESIGN §10.8): at COLLECT_AT in COLLECT_TZ, once a day across instances
 * (the job's lock and its period), a missed time made up once at start. After it the summaries are built
 * by the import itself and `onCollected` runs the Telegram publisher as after any import; failing sources
 * and partial lists are logged and sent to the admin chat.
 */
export function collectJob(options: {
  importer: Importer;
  collectAt: string;
  timezone: string;
  fetch?: FetchOptions;
  onCollected?: () => void;
  notify?: (text: string) => Promise<void>;
}): Job<CollectReport> {
  return {
    name: COLLECT_JOB,
    schedule: collectSchedule(options.collectAt, options.timezone),
    periodOf: (now) => todayIn(options.timezone, now),
    catchUp: true,
    async run({ db, log }) {
      const report = await collectAll(db, options.importer, todayIn(options.timezone), options.fetch);
      if (report.done + report.unchanged > 0) options.onCollected?.();
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
