import type { RoomGroup } from '@cena-metra/contract';
import { lastCarriedDay } from '../src/analytics/carry.js';
import { area100 } from '../src/analytics/cube.js';
import { GROUP_FILTERS } from '../src/analytics/stats.js';
import type { Segment } from '../src/analytics/types.js';
import { fromDay } from '../src/lib/days.js';

/**
 * A reference for the tests: the product reads the index from pace summaries (`unionIndex`), held to this
 * sweep of the segments on random data (pace-sweep, pace-union, the oracle).
 *
 * The same-flat price index of DESIGN §10.6. Average ppm moves with the mix of what is left on sale; the
 * index does not: for consecutive days with data d′ < d, F = the flats active on both with the same area
 * (±0.01 m²), r_d = exp(mean over F of ln(price_d / price_d′)) (1 when F is empty), I = 100 on the first day
 * with data in the range, I(d) = I(d′) × r_d.
 *
 * A day's state is its latest snapshot's, so r is 1 between snapshots and the series moves only on
 * snapshot days; `flats` are each flat's activity segments (full knowledge, §4.1 with §10.1 and §10.4).
 */
export function priceIndexSeries(
  flats: Segment[][],
  dates: number[],
  from: number,
  to: number,
  carry: number,
  group: RoomGroup = 'all',
): { date: string; index: number }[] {
  const accept = GROUP_FILTERS[group];
  const out: { date: string; index: number }[] = [];
  const n = dates.length;
  if (n === 0) return out;
  // each flat's price and area at each snapshot (active there, in the group): one sweep by segment start
  const segments = flats.flat().sort((a, b) => a.startDay - b.startDay);
  const open: Segment[] = [];
  let next = 0;
  const stateAt = (k: number) => {
    const day = dates[k];
    while (next < segments.length && segments[next].startDay <= day) open.push(segments[next++]);
    const m = new Map<number, { price: number; area100: number }>();
    let keep = 0;
    for (const s of open) {
      if ((s.endDay ?? dates[n - 1]) < day) continue;
      open[keep++] = s;
      if (accept(s.rec.rooms)) m.set(s.flatId, { price: s.rec.price, area100: area100(s.rec.area) });
    }
    open.length = keep;
    return m;
  };
  let index = 100;
  let previous: Map<number, { price: number; area100: number }> | null = null;
  for (let k = 0; k < n; k++) {
    const first = Math.max(from, dates[k]);
    const last = Math.min(to, lastCarriedDay(dates[k], k + 1 < n ? dates[k + 1] : null, carry));
    if (first > last) continue;
    const now = stateAt(k);
    if (previous && first === dates[k]) {
      let sum = 0;
      let count = 0;
      for (const [flatId, p] of now) {
        const before = previous.get(flatId);
        if (!before || before.area100 !== p.area100) continue;
        sum += Math.log(p.price / before.price);
        count++;
      }
      if (count) index *= Math.exp(sum / count);
    }
    previous = now;
    for (let day = first; day <= last; day++)
      out.push({ date: fromDay(day), index: Math.round(index * 100) / 100 });
  }
  return out;
}
