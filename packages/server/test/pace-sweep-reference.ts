import { carries, lastCarriedDay } from '../src/analytics/carry.js';
import { type FlatEvent, lowerBound } from '../src/analytics/events.js';
import { median, medianOfSorted } from '../src/analytics/median.js';
import type { PacePoint } from '../src/analytics/pace-summary.js';
import type { FlatRecord, Segment } from '../src/analytics/types.js';
import { fromDay } from '../src/lib/days.js';

export type { PacePoint };

const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/**
 * A reference for the tests: the product reads pace from pace summaries (`unionPace`), held to this sweep
 * of the segments on random data (pace-sweep, pace-union, the oracle).
 *
 * Sales pace of DESIGN §10.5 for each day with data in [from, to]: `flats` are the activity segments,
 * `events` the §4.4 events by snapshot day, `firstSeen` each flat's first presence, `accept` the filter
 * (building, rooms group, status) applied to the record a figure counts. Windows are the snapshot dates in
 * (D − W, D].
 *
 * A day's state is its latest snapshot's, so the active flats are found once per snapshot, in one sweep of
 * the segments by their start; each day then reads its snapshot's set and the events of its windows.
 */
export function paceSeries(
  flats: Segment[][],
  events: Map<number, FlatEvent[]>,
  firstSeen: Map<number, number>,
  dates: number[],
  from: number,
  to: number,
  carry: number,
  accept: (rec: FlatRecord) => boolean = () => true,
): PacePoint[] {
  const n = dates.length;
  if (n === 0) return [];
  const lastDay = dates[n - 1];
  // the snapshots whose state some asked day reads: those in range, and those carried into 30 days before
  const lo = lowerBound(dates, from - 30 - carry);
  const hi = Math.min(n - 1, upperIndex(dates, to));
  // active flats (passing the filter) at each snapshot k in [lo, hi], by one sweep over segments by start
  const segments = flats.flat().sort((a, b) => a.startDay - b.startDay);
  const active: (Set<number> | null)[] = new Array(n).fill(null);
  const ages: (number[] | null)[] = new Array(n).fill(null);
  const open: Segment[] = [];
  let next = 0;
  for (let k = lo; k <= hi; k++) {
    const day = dates[k];
    while (next < segments.length && segments[next].startDay <= day) open.push(segments[next++]);
    const set = new Set<number>();
    const firsts: number[] = [];
    let keep = 0;
    for (const s of open) {
      if ((s.endDay ?? lastDay) < day) continue; // ended: dropped from the open list
      open[keep++] = s;
      if (accept(s.rec)) {
        set.add(s.flatId);
        firsts.push(firstSeen.get(s.flatId) ?? day);
      }
    }
    open.length = keep;
    active[k] = set;
    ages[k] = firsts.sort((a, b) => a - b);
  }
  // the filtered events of each snapshot
  const newCount: number[] = new Array(n).fill(0);
  const removed: FlatEvent[][] = dates.map(() => []);
  dates.forEach((d, k) => {
    for (const e of events.get(d) ?? []) {
      if (!accept(e.rec)) continue;
      if (e.kind === 'NEW') newCount[k]++;
      else if (e.kind === 'REMOVED') removed[k].push(e);
    }
  });
  const snapshotOf = (day: number) => upperIndex(dates, day);
  const out: PacePoint[] = [];
  for (let k = 0; k < n; k++) {
    const first = Math.max(from, dates[k]);
    const last = Math.min(to, lastCarriedDay(dates[k], k + 1 < n ? dates[k + 1] : null, carry));
    for (let day = first; day <= last; day++) {
      const stock = active[k]!;
      const window = (w: number) => {
        let fresh = 0;
        const gone: { flatId: number; day: number }[] = [];
        for (let j = k; j >= 0 && dates[j] > day - w; j--) {
          fresh += newCount[j];
          // a flat that came back is not gone
          for (const e of removed[j])
            if (!stock.has(e.flatId)) gone.push({ flatId: e.flatId, day: dates[j] });
        }
        return { fresh, gone };
      };
      const w7 = window(7);
      const w30 = window(30);
      const before = day - 30;
      const kb = snapshotOf(before);
      const stockBefore = kb >= 0 && carries(dates[kb], before, carry) && active[kb] ? active[kb]!.size : 0;
      const denominator = stockBefore + w30.fresh;
      const firsts = ages[k]!;
      const medianFirst = medianOfSorted(firsts);
      out.push({
        date: fromDay(day),
        stock: stock.size,
        new7: w7.fresh,
        new30: w30.fresh,
        gone7: w7.gone.length,
        gone30: w30.gone.length,
        absorption: denominator ? round2((w30.gone.length / denominator) * 100) : null,
        monthsOfSupply: w30.gone.length ? round2(stock.size / w30.gone.length) : null,
        medianDaysOnMarket: median(w30.gone.map((g) => g.day - (firstSeen.get(g.flatId) ?? g.day))),
        medianStockAge: medianFirst === null ? null : day - medianFirst,
      });
    }
  }
  return out;
}

/** Index of the last date ≤ day, or -1. */
function upperIndex(dates: number[], day: number): number {
  return lowerBound(dates, day + 1) - 1;
}
