import type { Db } from 'cena-metra/dist/src/db/driver.js';
import { percentile, type Row } from './measure.js';

/**
 * Prices net of mix at the reference market's scale (DESIGN §12.4, bench:scale): a segment's index over the
 * market's whole history (the whole market first, then regions, cities, districts and classes — a kept
 * segment's links read and chained, a district's fitted per request), and a flat's fair price with its ten
 * comparables, each with its budget.
 */
export async function hedonicBench(
  o: {
    timed: (path: string, body?: unknown) => Promise<number>;
    /** flats on sale, spread over the market */
    flatIds: number[];
    /** the market's first day and the day after its last (dates) */
    first: string;
    next: string;
    /** regions (and their cities) of the market: 1…regions */
    regions: number;
  },
  when: string,
  rows: Row[],
): Promise<void> {
  const period = { from: o.first, to: o.next };
  const first = await o.timed('/market/hedonic', period);
  const times: number[] = [];
  const classes = ['economy', 'comfort', 'business', 'premium'];
  for (let i = 0; i < 20; i++) {
    const n = 1 + ((i * 17) % o.regions);
    const segment = [
      { region: `Регион ${n}` },
      { city: `Город ${n}` },
      { priceClass: classes[i % 4] },
      { district: `Район ${n}-${1 + (i % 12)}` },
      { rooms: 'two' },
    ][i % 5];
    times.push(await o.timed('/market/hedonic', { ...period, ...segment }));
  }
  const fair: number[] = [];
  for (const flatId of o.flatIds) fair.push(await o.timed(`/flat/fair?flatId=${flatId}`));
  const below = await o.timed('/market/below-comparables', { region: 'Регион 1' });
  rows.push(
    {
      what: `the hedonic index of the whole market over its history: first request ${when}`,
      value: `${first.toFixed(0)} ms`,
      budget: '≤ 100 ms',
      ok: first <= 100,
    },
    {
      what: `the hedonic index of 20 segments (regions, cities, classes, districts, two-room flats): p50 / p95 ${when}`,
      value: `${percentile(times, 50).toFixed(1)} / ${percentile(times, 95).toFixed(1)} ms`,
      budget: 'p50 ≤ 100 ms',
      ok: percentile(times, 50) <= 100,
    },
    {
      what: `a flat's fair price and its 10 comparables (${fair.length} flats): p95 ${when}`,
      value: `${percentile(fair, 95).toFixed(1)} ms`,
      budget: '≤ 200 ms',
      ok: percentile(fair, 95) <= 200,
    },
    { what: `«Ниже аналогов» of a region, first request ${when}`, value: `${below.toFixed(0)} ms` },
  );
}

/** A flat on sale at its project's latest list, of one project in forty (their fair prices are timed). */
export async function flatsOnSale(db: Db, projectIds: number[]): Promise<number[]> {
  const step = Math.max(1, Math.floor(projectIds.length / 40));
  const rows = await db.query<{ flat_id: number }>(
    `select distinct on (s.project_id) s.flat_id from flat_segment s join project p on p.id = s.project_id
     where s.project_id = any($1::int[]) and s.start_day <= p.last_snapshot_date
       and (s.end_day is null or s.end_day >= p.last_snapshot_date)
     order by s.project_id, s.flat_id`,
    [projectIds.filter((_, i) => i % step === 0)],
  );
  return rows.map((r) => r.flat_id);
}
