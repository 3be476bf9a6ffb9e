import { type PaceSummary, WINDOW } from '../src/analytics/pace-summary.js';
import type { UnionPoint } from '../src/analytics/pace-union.js';
import { fromDay } from '../src/lib/days.js';
import { lowerBound } from '../src/lib/sorted.js';

/**
 * The union sweep as it was before it was made fast (session 24): binary searches for each project's day
 * D − 30 and windows, a closure per project and day. Kept in the tests as the reference the fast sweep must
 * equal to the bit.
 */

const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** The multisets of days as they were (a Fenwick tree: a median in O(log n)), kept with the reference. */
class DayCounts {
  private readonly tree: Float64Array;
  total = 0;
  constructor(
    private readonly min: number,
    size: number,
  ) {
    this.tree = new Float64Array(size + 1);
  }
  add(day: number, count: number): void {
    this.total += count;
    for (let i = day - this.min + 1; i < this.tree.length; i += i & -i) this.tree[i] += count;
  }
  /** the day of the element with 1-based rank `rank` */
  at(rank: number): number {
    let pos = 0;
    let rest = rank;
    let step = 1;
    while (step * 2 < this.tree.length) step *= 2;
    for (; step > 0; step >>= 1) {
      const nextPos = pos + step;
      if (nextPos < this.tree.length && this.tree[nextPos] < rest) {
        pos = nextPos;
        rest -= this.tree[nextPos];
      }
    }
    return this.min + pos;
  }
  median(): number | null {
    if (this.total === 0) return null;
    const half = this.total >> 1;
    return this.total % 2 ? this.at(half + 1) : (this.at(half) + this.at(half + 1)) / 2;
  }
}

/** One project's position in a union sweep. */
interface Cursor {
  s: PaceSummary;
  /** the latest snapshot ≤ the day (−1: none yet) */
  k: number;
  /** whether the day has data (then the stock's first presences are in the union's tree) */
  has: boolean;
  firsts: Map<number, number>;
  cumFresh: number[];
  removalDays: number[];
  /** the removals entered into the window (those before `enter`), those left its 30 and its 7 days */
  enter: number;
  exit30: number;
  exit7: number;
  /** per snapshot, the removals whose flat is in the stock again there (not gone while it is current) */
  backAt: number[][];
}

/**
 * Sales pace, the same-flat index and the average ppm of a union of projects (one project is a union of
 * one) for each day in [from, to] on which some project has data, by the words of §10.5–10.6 over the
 * union's flats: the stock is every project's stock, a window holds every project's events, medians run
 * over all of the union's flats, the index's F is every flat active on both days.
 */
export function referenceSweep(
  summaries: PaceSummary[],
  from: number,
  to: number,
  /** where to put each point's day and index sums (Σ ln, pairs) too: what `unionSpan` keeps */
  sums?: { days: number[]; lnSums: number[]; pairSums: number[] },
): UnionPoint[] {
  const out: UnionPoint[] = [];
  const used = summaries.filter((s) => s.dates.length > 0);
  if (used.length === 0 || from > to) return out;
  const minDay = Math.min(...used.map((s) => s.dates[0]));
  const tree = new DayCounts(minDay, Math.max(1, to - minDay + 1));
  const cursors: Cursor[] = used.map((s) => {
    const cumFresh = [0];
    for (const f of s.fresh) cumFresh.push(cumFresh[cumFresh.length - 1] + f);
    const backAt: number[][] = s.dates.map(() => []);
    s.removals.forEach((r, i) => {
      for (const day of r.back) backAt[lowerBound(s.dates, day)].push(i);
    });
    return {
      s,
      k: -1,
      has: false,
      firsts: new Map(),
      cumFresh,
      removalDays: s.removals.map((r) => s.dates[r.k]),
      enter: 0,
      exit30: 0,
      exit7: 0,
      backAt,
    };
  });
  // the days on market of the lots in the union's 30-day window, less those back in the stock
  let longest = 0;
  for (const s of used) for (const r of s.removals) longest = Math.max(longest, s.dates[r.k] - r.first);
  const onMarket = new DayCounts(0, longest + 1);
  const dom = (c: Cursor, r: number) => c.removalDays[r] - c.s.removals[r].first;
  const advance = (c: Cursor, day: number) => {
    const s = c.s;
    while (c.k + 1 < s.dates.length && s.dates[c.k + 1] <= day) {
      c.k++;
      const delta = s.firstDelta[c.k];
      for (let i = 0; i < delta.length; i += 2) {
        c.firsts.set(delta[i], (c.firsts.get(delta[i]) ?? 0) + delta[i + 1]);
        if (c.has) tree.add(delta[i], delta[i + 1]);
      }
    }
    const has = c.k >= 0 && day <= s.ends[c.k];
    if (has !== c.has) for (const [first, count] of c.firsts) tree.add(first, has ? count : -count);
    c.has = has;
  };
  /** A project's stock on a day, −1 when it has no data that day. */
  const stockOn = (c: Cursor, day: number) => {
    const k = lowerBound(c.s.dates, day + 1) - 1;
    return k >= 0 && day <= c.s.ends[k] ? c.s.stock[k] : -1;
  };
  let index = 100;
  let started = false;
  // each project's snapshot on the previous day with data, or −1 when it had none there
  let before: number[] = [];
  for (let day = from; day <= to; day++) {
    for (const c of cursors) advance(c, day);
    if (!cursors.some((c) => c.has)) continue;
    let stock = 0;
    let priceSum = 0;
    let areaSum = 0;
    let stockBefore = 0;
    // whether the union has data on D − 30: absorption needs the whole window (§10.5)
    let whole = false;
    let lnSum = 0;
    let pairs = 0;
    const win = { new7: 0, new30: 0, gone7: 0, gone30: 0 };
    // the removals taken out of the tree for this day only (their flat is back): [cursor, removal] pairs
    const held: [Cursor, number][] = [];
    cursors.forEach((c, i) => {
      const s = c.s;
      if (c.has) {
        stock += s.stock[c.k];
        priceSum += s.priceSum[c.k];
        areaSum += s.areaSum[c.k];
        if (started && before[i] >= 0) {
          if (before[i] !== c.k) {
            lnSum += s.lnSum[c.k];
            pairs += s.pairs[c.k];
          } else pairs += s.stock[c.k];
        }
      }
      const monthAgo = stockOn(c, day - 30);
      if (monthAgo >= 0) {
        whole = true;
        stockBefore += monthAgo;
      }
      for (const w of [7, 30] as const) {
        const j = lowerBound(s.dates, day - w + 1);
        if (c.k >= j) win[w === 7 ? 'new7' : 'new30'] += c.cumFresh[c.k + 1] - c.cumFresh[j];
      }
      // the 30 days' removals slide in and out of the tree, the last 7 counted apart; a flat that came
      // back (in the stock at the current snapshot) is not gone, so it is held out of the tree for the day
      const days = c.removalDays;
      for (; c.enter < days.length && days[c.enter] <= day; c.enter++) onMarket.add(dom(c, c.enter), 1);
      for (; c.exit30 < c.enter && days[c.exit30] <= day - WINDOW; c.exit30++)
        onMarket.add(dom(c, c.exit30), -1);
      if (c.exit7 < c.exit30) c.exit7 = c.exit30;
      for (; c.exit7 < c.enter && days[c.exit7] <= day - 7; c.exit7++);
      win.gone30 += c.enter - c.exit30;
      win.gone7 += c.enter - c.exit7;
      if (c.has)
        for (const r of c.backAt[c.k]) {
          if (r < c.exit30 || r >= c.enter) continue;
          win.gone30--;
          if (r >= c.exit7) win.gone7--;
          onMarket.add(dom(c, r), -1);
          held.push([c, r]);
        }
    });
    const medianDaysOnMarket = onMarket.median();
    for (const [c, r] of held) onMarket.add(dom(c, r), 1);
    if (started && pairs) index *= Math.exp(lnSum / pairs);
    sums?.days.push(day);
    sums?.lnSums.push(started ? lnSum : 0);
    sums?.pairSums.push(started ? pairs : 0);
    started = true;
    before = cursors.map((c) => (c.has ? c.k : -1));
    const denominator = stockBefore + win.new30;
    const medianFirst = tree.median();
    out.push({
      date: fromDay(day),
      stock,
      ...win,
      absorption: whole && denominator ? round2((win.gone30 / denominator) * 100) : null,
      monthsOfSupply: win.gone30 ? round2(stock / win.gone30) : null,
      medianDaysOnMarket,
      medianStockAge: medianFirst === null ? null : day - medianFirst,
      index: Math.round(index * 100) / 100,
      avgMeterPrice: areaSum ? round2(priceSum / areaSum) : null,
    });
  }
  return out;
}
