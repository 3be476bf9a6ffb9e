import { fromDay } from '../lib/days.js';
import { carries, lastCarriedDay } from './carry.js';
import type { FlatEvent } from './events.js';
import type { FlatRecord, Segment } from './types.js';

/** One day of sales pace (DESIGN §10.5). */
export interface PacePoint {
  date: string;
  stock: number;
  new7: number;
  new30: number;
  gone7: number;
  gone30: number;
  /** % of what could have sold in 30 days that did: gone₃₀ / (stock on D − 30 + new₃₀) × 100 */
  absorption: number | null;
  monthsOfSupply: number | null;
  /** median of REMOVED date − first presence over the flats gone in the 30-day window */
  medianDaysOnMarket: number | null;
  /** median of D − first presence over the stock */
  medianStockAge: number | null;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/**
 * Sales pace of DESIGN §10.5 for each day with data in [from, to]: `flats` are the activity segments,
 * `events` the §4.4 events by snapshot day, `firstSeen` each flat's first presence, `accept` the filter
 * (building, rooms group, status) applied to the record a figure counts. Windows are the snapshot dates in
 * (D − W, D].
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
  /** the flats active on a day, with their record there */
  const activeOn = (day: number) => {
    const out = new Map<number, FlatRecord>();
    for (const segs of flats)
      for (const s of segs)
        if (s.startDay <= day && (s.endDay ?? lastDay) >= day) {
          if (accept(s.rec)) out.set(s.flatId, s.rec);
          break;
        }
    return out;
  };
  /** whether `day` has data: a snapshot on or before it within C days, not after the last */
  const hasData = (day: number) => {
    let k = -1;
    for (let i = 0; i < n && dates[i] <= day; i++) k = i;
    return k >= 0 && day <= lastDay && carries(dates[k], day, carry);
  };
  /** the events of the snapshots in (day − w, day] that pass the filter, with their snapshot day */
  const inWindow = (day: number, w: number) => {
    const list: { e: FlatEvent; day: number }[] = [];
    for (const snapshotDay of dates)
      if (snapshotDay > day - w && snapshotDay <= day)
        for (const e of events.get(snapshotDay) ?? []) if (accept(e.rec)) list.push({ e, day: snapshotDay });
    return list;
  };
  const out: PacePoint[] = [];
  for (let k = 0; k < n; k++) {
    const first = Math.max(from, dates[k]);
    const last = Math.min(to, lastCarriedDay(dates[k], k + 1 < n ? dates[k + 1] : null, carry));
    for (let day = first; day <= last; day++) {
      const stock = activeOn(day);
      // a flat that came back is not gone
      const count = (w: number, kind: 'NEW' | 'REMOVED') =>
        inWindow(day, w).filter(({ e }) => e.kind === kind && (kind === 'NEW' || !stock.has(e.flatId)));
      const new30 = count(30, 'NEW').length;
      const gone30 = count(30, 'REMOVED');
      const before = day - 30;
      const stockBefore = hasData(before) ? activeOn(before).size : 0;
      const denominator = stockBefore + new30;
      out.push({
        date: fromDay(day),
        stock: stock.size,
        new7: count(7, 'NEW').length,
        new30,
        gone7: count(7, 'REMOVED').length,
        gone30: gone30.length,
        absorption: denominator ? round2((gone30.length / denominator) * 100) : null,
        monthsOfSupply: gone30.length ? round2(stock.size / gone30.length) : null,
        medianDaysOnMarket: median(gone30.map(({ e, day: at }) => at - (firstSeen.get(e.flatId) ?? at))),
        medianStockAge: median([...stock.keys()].map((id) => day - (firstSeen.get(id) ?? day))),
      });
    }
  }
  return out;
}
