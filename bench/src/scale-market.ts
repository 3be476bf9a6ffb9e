import type { Db } from 'cena-metra/dist/src/db/driver.js';
import { fromDay } from 'cena-metra/dist/src/lib/days.js';
import { MarketReader } from 'cena-metra/dist/src/read/market-reader.js';
import { ReadCache } from 'cena-metra/dist/src/read/read-cache.js';
import { type KeepReport, keepMarketSpansLocked } from 'cena-metra/dist/src/use-cases/market-spans.js';
import { percentile, type Row } from './measure.js';
import { hedonicBench } from './scale-hedonic.js';

/**
 * «Рынок» at the reference market's scale (bench:scale): its pace chart (the whole market first, then
 * periods of other starts and lengths — slices of the held span), the ranking (each request computed) and
 * the comparison of ten projects, each with its budget.
 */
export async function marketBench(
  o: {
    timed: (path: string, body?: unknown) => Promise<number>;
    projects: number;
    projectIds: number[];
    /** the last day of the market's lists, its first (as dates) and the day after it */
    last: number;
    first: string;
    next: string;
    /** flats on sale for the fair price (DESIGN §12.4) and the market's regions */
    flatIds: number[];
    regions: number;
  },
  when: string,
  rows: Row[],
): Promise<void> {
  await hedonicBench(o, when, rows);
  // periods of different starts: each request computed
  const period = (i: number) => ({ from: fromDay(o.last - 90 - i), to: o.next });
  const first = await o.timed('/market', period(0));
  const times: number[] = [];
  for (let i = 1; i <= 20; i++) times.push(await o.timed('/market', period(i)));
  const compare: number[] = [];
  const metrics = ['avgMeterPrice', 'index', 'stock', 'absorption'] as const;
  for (let i = 0; i < 20; i++)
    compare.push(
      await o.timed('/compare', {
        projectIds: Array.from(
          { length: Math.min(10, o.projectIds.length) },
          (_, j) => o.projectIds[(i * 7 + j) % o.projectIds.length],
        ),
        from: o.first,
        to: o.next,
        metric: metrics[i % 4],
      }),
    );
  // the market's pace chart (POST /api/market/pace): the whole market, then periods of other starts and
  // lengths — each a slice of the held span (pace-union.ts: periodOf), not another sweep
  const paceFirst = await o.timed('/market/pace', { ...period(0), rooms: 'all', status: 'ALL' });
  const paceTimes: number[] = [];
  for (let i = 1; i <= 20; i++)
    paceTimes.push(
      await o.timed('/market/pace', {
        from: fromDay(o.last - 30 * (i % 12) - i),
        to: fromDay(o.last - (i % 5)),
        rooms: 'all',
        status: 'ALL',
      }),
    );
  rows.push(
    {
      what: `«Рынок»'s pace of the whole market (${o.projects} projects): first request ${when} (its whole span computed)`,
      value: `${paceFirst.toFixed(0)} ms`,
      budget: '≤ 1,000 ms',
      ok: paceFirst <= 1000,
    },
    {
      what: `«Рынок»'s pace, 20 other periods: p50 ${when}`,
      value: `${percentile(paceTimes, 50).toFixed(1)} ms`,
      budget: '≤ 100 ms',
      ok: percentile(paceTimes, 50) <= 100,
    },
    {
      what: `«Рынок» (${o.projects} projects ranked, 90 days): first request ${when}`,
      value: `${first.toFixed(0)} ms`,
      budget: '≤ 1,000 ms',
      ok: first <= 1000,
    },
    {
      what: `«Рынок», every request computed: p50 ${when}`,
      value: `${percentile(times, 50).toFixed(1)} ms`,
      budget: '≤ 100 ms',
      ok: percentile(times, 50) <= 100,
    },
    {
      what: `compare 10 projects over the year, every request computed: p50 ${when}`,
      value: `${percentile(compare, 50).toFixed(1)} ms`,
      budget: '≤ 100 ms',
      ok: percentile(compare, 50) <= 100,
    },
  );
}

/** Which span was the slowest, and its reading's and sweep's parts. */
function slowestParts({ slowest: s }: KeepReport): string {
  if (!s) return '';
  return ` (${s.scope}, ${s.status}/${s.rooms}: read ${s.readMs.toFixed(0)}, sweep ${s.sweepMs.toFixed(0)})`;
}

/**
 * A round of the market's kept spans (use-cases/market-spans.ts) in this process, as a command runs it:
 * after the load every span is made; after the day the server's own rounds have made most of them (this
 * one waits for the lock, then makes what is left). Its slowest span is the «computed» budget: the whole
 * market's, brought up to date from its members' tails after a day (use-cases/span-append.ts), or swept over
 * their whole summaries when it cannot be.
 */
export async function keepSpansBench(db: Db, when: string, rows: Row[], note: (s: string) => void) {
  note(`scale: ряды рынка ${when}…`);
  const t = performance.now();
  const report = await keepMarketSpansLocked(db, new MarketReader(new ReadCache(256 * 1024 * 1024)));
  const ms = performance.now() - t;
  rows.push(
    {
      what: `the market's kept spans ${when}: a round (${report.made} of ${report.kept} scopes × filters made, ${report.appended} of them from their members' tails)`,
      value: `${(ms / 1000).toFixed(1)} s`,
    },
    {
      what: `the market's kept spans ${when}: the slowest span computed (its members' tails or summaries read, the sweep)`,
      value: `${report.slowestMs.toFixed(0)} ms${slowestParts(report)}`,
      budget: '≤ 1,000 ms',
      ok: report.slowestMs <= 1000,
    },
    {
      what: `the hedonic index's kept links ${when}: the round's part (${report.links.made} of ${report.links.kept} segments × rooms groups made; ${report.links.refit} of their ${report.links.windows} windows fitted again)`,
      value: `${(report.links.ms / 1000).toFixed(1)} s`,
    },
  );
}
