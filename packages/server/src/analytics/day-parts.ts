import { fromDay } from '../lib/days.js';
import { lowerBound } from '../lib/sorted.js';
import { WINDOW } from './pace-summary.js';
import type { RankSummary } from './rank-summary.js';

/** The count of removals whose day is ≤ `day` (removals are in snapshot order). */
function removalsUpTo(s: RankSummary, day: number): number {
  let lo = 0;
  let hi = s.removalK.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s.dates[s.removalK[mid]] <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isBack(s: RankSummary, r: number, day: number): boolean {
  for (let i = s.backStart[r]; i < s.backStart[r + 1]; i++) if (s.back[i] === day) return true;
  return false;
}

const grown = <A extends Float64Array | Int32Array | Uint8Array>(a: A, size: number): A => {
  const b = new (a.constructor as new (n: number) => A)(size);
  b.set(a);
  return b;
};

/** A union's figures on a day (the sums of its members' slots) and the median of their days on market. */
export interface DayFigures {
  stock: number;
  priceSum: number;
  areaSum: number;
  stockBefore: number;
  /** 1 when a member has data on the day − 30 */
  whole: number;
  new7: number;
  new30: number;
  gone7: number;
  gone30: number;
  medianDaysOnMarket: number | null;
}

/**
 * The figures of the projects of one ranking on one day, as the sweep reads them (0 for what a project has
 * no data for), a slot per project in flat arrays: a ranking of the whole country reads thousands, and as
 * objects they outlived the young generation of every request. The days on market of each project's
 * removals in the window are a run of one pool: `pool[onStart[i] … onEnd[i])`.
 */
export class DayTable {
  filled: Uint8Array;
  stock: Float64Array;
  priceSum: Float64Array;
  areaSum: Float64Array;
  stockBefore: Float64Array;
  /** 1 when the project has data on the day − 30 (its absorption window is whole, §10.5) */
  whole: Uint8Array;
  new7: Float64Array;
  new30: Float64Array;
  gone7: Float64Array;
  gone30: Float64Array;
  onStart: Int32Array;
  onEnd: Int32Array;
  pool = new Int32Array(1024);
  private poolUsed = 0;
  /** a slot's median days on market once computed (`medianOf`): 1 in `medianKnown`, NaN for none */
  private median: Float64Array;
  private medianKnown: Uint8Array;
  /**
   * unions' figures already added up (`unionFigures`), by a key naming their members: a ranking over another
   * period ending on the same day adds up the same members' same figures, so it takes them from here
   */
  private readonly unions = new Map<string, DayFigures>();

  /** the day as a date (each row of the ranking names it) */
  readonly date: string;

  constructor(
    readonly day: number,
    capacity: number,
  ) {
    this.date = fromDay(day);
    this.filled = new Uint8Array(capacity);
    this.stock = new Float64Array(capacity);
    this.priceSum = new Float64Array(capacity);
    this.areaSum = new Float64Array(capacity);
    this.stockBefore = new Float64Array(capacity);
    this.whole = new Uint8Array(capacity);
    this.new7 = new Float64Array(capacity);
    this.new30 = new Float64Array(capacity);
    this.gone7 = new Float64Array(capacity);
    this.gone30 = new Float64Array(capacity);
    this.onStart = new Int32Array(capacity);
    this.onEnd = new Int32Array(capacity);
    this.median = new Float64Array(capacity);
    this.medianKnown = new Uint8Array(capacity);
  }

  private ensure(slot: number): void {
    if (slot < this.filled.length) return;
    const size = Math.max(2 * this.filled.length, slot + 1);
    this.filled = grown(this.filled, size);
    this.stock = grown(this.stock, size);
    this.priceSum = grown(this.priceSum, size);
    this.areaSum = grown(this.areaSum, size);
    this.stockBefore = grown(this.stockBefore, size);
    this.whole = grown(this.whole, size);
    this.new7 = grown(this.new7, size);
    this.new30 = grown(this.new30, size);
    this.gone7 = grown(this.gone7, size);
    this.gone30 = grown(this.gone30, size);
    this.onStart = grown(this.onStart, size);
    this.onEnd = grown(this.onEnd, size);
    this.median = grown(this.median, size);
    this.medianKnown = grown(this.medianKnown, size);
  }

  private push(value: number): void {
    if (this.poolUsed === this.pool.length) this.pool = grown(this.pool, 2 * this.pool.length);
    this.pool[this.poolUsed++] = value;
  }

  /** about the bytes held: the arrays, the days on market, the unions' figures */
  bytes(): number {
    return this.filled.length * 78 + this.pool.length * 4 + this.unions.size * 200;
  }

  /** Reads project `s`'s figures on the day into `slot`, unless they are there already. */
  fill(s: RankSummary, slot: number): void {
    this.ensure(slot);
    if (this.filled[slot]) return;
    this.filled[slot] = 1;
    const day = this.day;
    const k = lowerBound(s.dates, day + 1) - 1;
    const has = k >= 0 && day <= s.ends[k];
    this.stock[slot] = has ? s.stock[k] : 0;
    this.priceSum[slot] = has ? s.priceSum[k] : 0;
    this.areaSum[slot] = has ? s.areaSum[k] : 0;
    const kBefore = lowerBound(s.dates, day - 30 + 1) - 1;
    const whole = kBefore >= 0 && day - 30 <= s.ends[kBefore];
    this.whole[slot] = whole ? 1 : 0;
    this.stockBefore[slot] = whole ? s.stock[kBefore] : 0;
    let new7 = 0;
    let new30 = 0;
    for (let j = lowerBound(s.dates, day - 30 + 1); j <= k; j++) {
      new30 += s.fresh[j];
      if (s.dates[j] >= day - 7 + 1) new7 += s.fresh[j];
    }
    this.new7[slot] = new7;
    this.new30[slot] = new30;
    // the removals of the 30 days and of the last 7, less those whose flat is in the stock again today
    const enter = removalsUpTo(s, day);
    const exit30 = Math.min(enter, removalsUpTo(s, day - WINDOW));
    const exit7 = Math.max(exit30, Math.min(enter, removalsUpTo(s, day - 7)));
    let gone7 = 0;
    let gone30 = 0;
    this.onStart[slot] = this.poolUsed;
    for (let r = exit30; r < enter; r++) {
      if (has && isBack(s, r, s.dates[k])) continue;
      gone30++;
      if (r >= exit7) gone7++;
      this.push(s.dates[s.removalK[r]] - s.removalFirst[r]);
    }
    this.onEnd[slot] = this.poolUsed;
    this.gone7[slot] = gone7;
    this.gone30[slot] = gone30;
  }

  /** A filled slot's figures alone. */
  slotFigures(slot: number): DayFigures {
    return {
      stock: this.stock[slot],
      priceSum: this.priceSum[slot],
      areaSum: this.areaSum[slot],
      stockBefore: this.stockBefore[slot],
      whole: this.whole[slot],
      new7: this.new7[slot],
      new30: this.new30[slot],
      gone7: this.gone7[slot],
      gone30: this.gone30[slot],
      medianDaysOnMarket: this.medianOf(slot),
    };
  }

  /** The median days on market of a filled slot alone, computed once. */
  medianOf(slot: number): number | null {
    if (!this.medianKnown[slot]) {
      ONE[0] = slot;
      this.median[slot] = medianOfSlots(this, ONE) ?? Number.NaN;
      this.medianKnown[slot] = 1;
    }
    const m = this.median[slot];
    return Number.isNaN(m) ? null : m;
  }

  /**
   * The figures of the union of `summaries` on the day: each member's read into its slot of `parts` (once
   * per ranking), added up in the union's order; with `key` (naming the members and their data, in order),
   * added up once and then taken as they are.
   */
  unionFigures(summaries: RankSummary[], parts: DayParts, key?: string): DayFigures {
    const held = key === undefined ? undefined : this.unions.get(key);
    if (held) return held;
    const slots = new Int32Array(summaries.length);
    const f: DayFigures = {
      stock: 0,
      priceSum: 0,
      areaSum: 0,
      stockBefore: 0,
      whole: 0,
      new7: 0,
      new30: 0,
      gone7: 0,
      gone30: 0,
      medianDaysOnMarket: null,
    };
    for (let i = 0; i < summaries.length; i++) {
      const slot = parts.slot(summaries[i]);
      this.fill(summaries[i], slot);
      slots[i] = slot;
      f.stock += this.stock[slot];
      f.priceSum += this.priceSum[slot];
      f.areaSum += this.areaSum[slot];
      f.stockBefore += this.stockBefore[slot];
      f.whole |= this.whole[slot];
      f.new7 += this.new7[slot];
      f.new30 += this.new30[slot];
      f.gone7 += this.gone7[slot];
      f.gone30 += this.gone30[slot];
    }
    f.medianDaysOnMarket = medianOfSlots(this, slots);
    if (key !== undefined) this.unions.set(key, f);
    return f;
  }
}

/** One slot's list for `medianOf` (a ranking runs one row at a time, synchronously). */
const ONE = new Int32Array(1);

/**
 * The projects' days one ranking has read: its rows are each project alone, each developer and the whole,
 * mostly on the same last day, so a project's figures there are read once and added up by every union.
 */
export class DayParts {
  private readonly slots = new Map<RankSummary, number>();
  private readonly days = new Map<number, DayTable>();

  /** `capacity`: the projects the ranking is likely to read (the tables grow past it) */
  constructor(private readonly capacity = 16) {}

  /** The project's slot in every day's table of this ranking. */
  slot(s: RankSummary): number {
    let slot = this.slots.get(s);
    if (slot === undefined) {
      slot = this.slots.size;
      this.slots.set(s, slot);
    }
    return slot;
  }

  /** about the bytes held: the tables' arrays and their days on market */
  bytes(): number {
    let bytes = 100 + this.slots.size * 40;
    for (const t of this.days.values()) bytes += t.bytes();
    return bytes;
  }

  day(day: number): DayTable {
    let table = this.days.get(day);
    if (!table) {
      table = new DayTable(day, this.capacity);
      this.days.set(day, table);
    }
    return table;
  }
}

/** A buffer reused by every median (one request at a time runs its ranking to the end, synchronously). */
let scratch = new Int32Array(4096);

/**
 * The median of the days on market of some slots of a day's table (0 or more each; the mean of the two
 * middle ones for an even count), null for none: a few sorted, many (the whole market's month: ~150,000)
 * counted by value instead.
 */
export function medianOfSlots(table: DayTable, slots: ArrayLike<number>): number | null {
  const { pool, onStart, onEnd } = table;
  let count = 0;
  let max = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i];
    count += onEnd[slot] - onStart[slot];
    for (let j = onStart[slot]; j < onEnd[slot]; j++) if (pool[j] > max) max = pool[j];
  }
  if (count === 0) return null;
  const half = count >> 1;
  if (count <= 256) {
    let n = 0;
    for (let i = 0; i < slots.length; i++)
      for (let j = onStart[slots[i]]; j < onEnd[slots[i]]; j++) scratch[n++] = pool[j];
    // by insertion: no comparator called, nothing made
    for (let i = 1; i < n; i++) {
      const v = scratch[i];
      let j = i - 1;
      for (; j >= 0 && scratch[j] > v; j--) scratch[j + 1] = scratch[j];
      scratch[j + 1] = v;
    }
    return count % 2 ? scratch[half] : (scratch[half - 1] + scratch[half]) / 2;
  }
  let min = 0;
  for (let i = 0; i < slots.length; i++)
    for (let j = onStart[slots[i]]; j < onEnd[slots[i]]; j++) if (pool[j] < min) min = pool[j];
  if (scratch.length < max - min + 1) scratch = new Int32Array(max - min + 1);
  const counts = scratch;
  counts.fill(0, 0, max - min + 1);
  for (let i = 0; i < slots.length; i++)
    for (let j = onStart[slots[i]]; j < onEnd[slots[i]]; j++) counts[pool[j] - min]++;
  // the values of rank half and half + 1 (1-based), as a sorted list would have them
  const at = (rank: number) => {
    let seen = 0;
    for (let i = 0; i <= max - min; i++) {
      seen += counts[i];
      if (seen >= rank) return i + min;
    }
    return max;
  };
  return count % 2 ? at(half + 1) : (at(half) + at(half + 1)) / 2;
}
