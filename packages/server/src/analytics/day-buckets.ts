/**
 * The union sweep's medians (analytics/union-sweep.ts): a multiset of days with counts and its median, and
 * events of such a multiset bucketed by day.
 */

/**
 * A multiset of days with counts: the first presences of a union's stock, or the days on market of the lots
 * gone in its 30-day window, with their median. A count per day and a cursor kept at the median: an add is
 * O(1), and the cursor moves as far as the median does from one day to the next (a few days), so a year
 * of 5,000 projects' millions of events costs no search each (a Fenwick tree's 12 steps an add did).
 */
export class DayCounts {
  private readonly counts: Float64Array;
  total = 0;
  /** the cursor, and the count of the days before it */
  private at = 0;
  private below = 0;
  constructor(
    private readonly min: number,
    size: number,
  ) {
    this.counts = new Float64Array(size);
  }
  add(day: number, count: number): void {
    const i = day - this.min;
    this.counts[i] += count;
    this.total += count;
    if (i < this.at) this.below += count;
  }
  /** the day of the element with 1-based rank `rank` (1 ≤ rank ≤ total) */
  private day(rank: number): number {
    const counts = this.counts;
    while (this.below + counts[this.at] < rank) this.below += counts[this.at++];
    while (this.at > 0 && this.below >= rank) this.below -= counts[--this.at];
    return this.min + this.at;
  }
  median(): number | null {
    if (this.total === 0) return null;
    const half = this.total >> 1;
    return this.total % 2 ? this.day(half + 1) : (this.day(half) + this.day(half + 1)) / 2;
  }
}

/** Events of one multiset by day (day, value, count), applied to it day by day. */
export interface DayEvents {
  add(day: number, value: number, count: number): void;
  /** the events of the day `i` (from the start), applied to the multiset (their counts times `sign`) */
  apply(i: number, to: DayCounts, sign?: number): void;
  /** made ready to apply (a step of its own in a sweep) */
  sort(): void;
}

/**
 * The events of a multiset of values in [min, min + width) on the days [start, start + span), kept as they
 * come (`Buckets`) or added up in a day × value table (`EventGrid`): the table when it is smaller than the
 * events would be — the whole market's are millions over a year (~1.3 M first presences alone), its table
 * ~0.13 M cells — and the events when they are few (one project's, over a long span). Counts are integers:
 * the multiset on each day is the same either way, so its medians are.
 */
export function dayEvents(
  start: number,
  span: number,
  min: number,
  width: number,
  expected: number,
): DayEvents {
  return span * width <= 4 * expected ? new EventGrid(start, span, min, width) : new Buckets(start, span);
}

/** Events added up by day and value: a count a cell, applied by reading the day's row. */
export class EventGrid implements DayEvents {
  private readonly cells: Int32Array;
  constructor(
    private readonly start: number,
    private readonly span: number,
    private readonly min: number,
    private readonly width: number,
  ) {
    this.cells = new Int32Array(span * width);
  }
  add(day: number, value: number, count: number): void {
    const i = day - this.start;
    if (i < 0 || i >= this.span) return;
    this.cells[i * this.width + value - this.min] += count;
  }
  apply(i: number, to: DayCounts, sign = 1): void {
    const { cells, width, min } = this;
    for (let v = 0, at = i * width; v < width; v++, at++)
      if (cells[at] !== 0) to.add(min + v, sign * cells[at]);
  }
  sort(): void {}
}

/**
 * Events of one multiset by day: (day, value, count) in typed arrays as they come, then sorted by day
 * (counting sort, stable) and applied day by day — millions of events without an object or array each.
 */
export class Buckets implements DayEvents {
  private days = new Int32Array(1024);
  private pairs = new Int32Array(2048);
  private length = 0;
  private starts: Int32Array | null = null;
  private sorted: Int32Array | null = null;
  constructor(
    private readonly start: number,
    private readonly span: number,
  ) {}
  add(day: number, value: number, count: number): void {
    const i = day - this.start;
    if (i < 0 || i >= this.span) return;
    if (this.length === this.days.length) {
      const days = new Int32Array(this.days.length * 2);
      days.set(this.days);
      this.days = days;
      const pairs = new Int32Array(this.pairs.length * 2);
      pairs.set(this.pairs);
      this.pairs = pairs;
    }
    this.days[this.length] = i;
    this.pairs[2 * this.length] = value;
    this.pairs[2 * this.length + 1] = count;
    this.length++;
  }
  apply(i: number, to: DayCounts, sign = 1): void {
    if (!this.sorted) this.sort();
    const starts = this.starts!;
    const sorted = this.sorted!;
    for (let e = starts[i]; e < starts[i + 1]; e++) to.add(sorted[2 * e], sign * sorted[2 * e + 1]);
  }
  /** Sorts the events by day (done by the first `apply` when not before: a step of its own in a sweep). */
  sort(): void {
    const starts = new Int32Array(this.span + 1);
    for (let e = 0; e < this.length; e++) starts[this.days[e] + 1]++;
    for (let i = 0; i < this.span; i++) starts[i + 1] += starts[i];
    const next = starts.slice(0, this.span);
    const sorted = new Int32Array(2 * this.length);
    for (let e = 0; e < this.length; e++) {
      const at = next[this.days[e]]++;
      sorted[2 * at] = this.pairs[2 * e];
      sorted[2 * at + 1] = this.pairs[2 * e + 1];
    }
    this.starts = starts;
    this.sorted = sorted;
  }
}
