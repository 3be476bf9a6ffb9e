import { lowerBound } from '../lib/sorted.js';
import { activityRuns, dayIndexOf, toDaySegments } from './activity.js';
import { gapBetween } from './carry.js';
import { addShare, type CubeCell, cellShare, sortedCells } from './cube.js';
import { type FlatEvent, flatEventsAt } from './events.js';
import { withPartialScans } from './partial.js';
import { partialScans } from './quality.js';
import { insertRow, rowIndex, stateAt } from './rows.js';
import {
  DEFAULT_CARRY_DAYS,
  type FlatHistory,
  type FlatRecord,
  type ObservationRow,
  type Segment,
  sameRecord,
} from './types.js';

export { stateAt } from './rows.js';

/** Row changes of the observation log that one snapshot causes. */
export interface RowChanges {
  inserts: { flatId: number; row: ObservationRow }[];
  deletes: { flatId: number; day: number }[];
}

/** Derived data recomputed after a change: only what the change can affect. */
export interface DerivedChanges {
  segmentInserts: Segment[];
  segmentDeletes: { flatId: number; startDay: number }[];
  /** recomputed cubes by day (all of them may or may not differ from the stored ones) */
  cubes: Map<number, CubeCell[]>;
  /** recomputed events by snapshot day */
  events: Map<number, FlatEvent[]>;
}

/**
 * A project's observation log and derived state in memory. Applying a snapshot keeps the log canonical
 * (a row exactly where a flat's state differs from the previous snapshot's), so the log, and everything
 * derived from it, is the same whatever order the snapshots arrive in.
 */
export class ProjectModel {
  dates: number[] = [];
  hashes = new Map<number, string>();
  flats = new Map<number, FlatHistory>();
  externalIds = new Map<string, number>();
  segments = new Map<number, Segment[]>();
  /** flats each snapshot lists, by day (§10.4 compares them) */
  sizes = new Map<number, number>();
  /** days of the snapshots imported as whole (`--complete`): never partial */
  completes = new Set<number>();
  /** days of the partial snapshots as of the last recompute */
  partial = new Set<number>();
  /**
   * Each flat's first presence as kept, on a model that holds only what a plain append reads
   * (append-window.ts): the full rows of the flats it can touch, the latest row of every other flat and
   * the segments running in its window. Null on a model of the whole history.
   */
  known: Map<number, number> | null = null;

  constructor(
    readonly projectId: number,
    readonly grace: number,
    public dataVersion = 0,
    /** the carry-forward limit C in days (§10.1) */
    readonly carry = DEFAULT_CARRY_DAYS,
  ) {}

  history(flatId: number): FlatHistory {
    let h = this.flats.get(flatId);
    if (!h) {
      h = { flatId, rows: [] };
      this.flats.set(flatId, h);
    }
    return h;
  }

  /**
   * Puts the snapshot's state (flatId → record, absent flats omitted) at `day`, replacing any snapshot
   * of that day, and returns the log rows to write and delete.
   */
  applySnapshot(day: number, state: Map<number, FlatRecord>, complete = false): RowChanges {
    const changes: RowChanges = { inserts: [], deletes: [] };
    this.sizes.set(day, state.size);
    if (complete) this.completes.add(day);
    else this.completes.delete(day);
    const at = lowerBound(this.dates, day);
    const replacing = this.dates[at] === day;
    const prevDay = at > 0 ? this.dates[at - 1] : null;
    const nextDay = replacing ? (this.dates[at + 1] ?? null) : (this.dates[at] ?? null);
    for (const flatId of state.keys()) this.history(flatId);
    const appending = nextDay === null && !replacing;
    for (const history of this.flats.values()) {
      const rows = history.rows;
      const next = state.get(history.flatId) ?? null;
      if (appending) {
        // the common daily case: compare with the flat's latest state only
        const last = rows.length ? rows[rows.length - 1].rec : null;
        if (!sameRecord(next, last)) {
          const row = { day, rec: next };
          rows.push(row);
          changes.inserts.push({ flatId: history.flatId, row });
        }
        continue;
      }
      const nextRowAt = nextDay === null ? -1 : rowIndex(rows, nextDay);
      const oldAtNext = nextDay === null ? null : stateAt(rows, nextDay);
      const own = rowIndex(rows, day);
      if (own >= 0) {
        rows.splice(own, 1);
        changes.deletes.push({ flatId: history.flatId, day });
      }
      const before = prevDay === null ? null : stateAt(rows, prevDay);
      if (!sameRecord(next, before)) {
        const row = { day, rec: next };
        insertRow(rows, row);
        changes.inserts.push({ flatId: history.flatId, row });
      }
      if (nextDay === null) continue;
      const i = rowIndex(rows, nextDay);
      if (nextRowAt >= 0 && i >= 0) {
        if (sameRecord(rows[i].rec, next)) {
          rows.splice(i, 1);
          changes.deletes.push({ flatId: history.flatId, day: nextDay });
        }
      } else if (!sameRecord(oldAtNext, next)) {
        const row = { day: nextDay, rec: oldAtNext };
        insertRow(rows, row);
        changes.inserts.push({ flatId: history.flatId, row });
      }
    }
    // drop histories of flats that no longer have any row (a replaced snapshot was their only one)
    for (const [flatId, h] of this.flats) if (h.rows.length === 0) this.flats.delete(flatId);
    if (!replacing) this.dates.splice(at, 0, day);
    return changes;
  }

  /**
   * Recomputes what a change at snapshot `day` can affect. Activity at snapshot k depends on presence within
   * `grace` snapshots of k (and on the last snapshot), and events at k on snapshots k − grace … k, so an
   * append touches only the tail; a back-filled snapshot touches its neighbourhood.
   */
  recompute(day: number): DerivedChanges {
    const n = this.dates.length;
    const g = this.grace;
    const partialKs = this.updatePartial();
    // a snapshot that became or stopped being partial elsewhere (a back-fill moved the counts before it)
    // changes what every flat had there: everything is recomputed, as by a rebuild
    const elsewhere = partialKs.changed.some((d) => d !== day);
    const x = elsewhere ? 0 : lowerBound(this.dates, day);
    // an append after a gap without data (§10.1) ends every open segment at the gap: every flat is touched
    const append =
      !elsewhere && x === n - 1 && !(n > 1 && gapBetween(this.dates[n - 2], this.dates[n - 1], this.carry));
    if (this.known && !append) throw new Error('a model of an append window recomputes an append only');
    const dayIndex = dayIndexOf(this.dates);
    // a flat kept present by partial snapshots just before x was active (as known) before them
    let chain = x;
    while (chain > 0 && this.partial.has(this.dates[chain - 1])) chain--;
    const recentFrom = this.dates[Math.max(0, chain - g - 1)];
    const out: DerivedChanges = {
      segmentInserts: [],
      segmentDeletes: [],
      cubes: new Map(),
      events: new Map(),
    };
    const touched: FlatHistory[] = [];
    for (const raw of this.flats.values()) {
      // on an append, a flat whose last row is older than the grace window keeps its activity and events
      if (append && raw.rows[raw.rows.length - 1].day < recentFrom) continue;
      const h = this.effective(raw, partialKs.ks);
      touched.push(h);
      const fresh = toDaySegments(
        h.flatId,
        activityRuns(h, dayIndex, this.dates, g, this.carry),
        this.dates,
        this.carry,
      );
      const stored = this.segments.get(h.flatId) ?? [];
      diffSegments(stored, fresh, out);
      if (fresh.length) this.segments.set(h.flatId, fresh);
      else this.segments.delete(h.flatId);
    }
    for (const flatId of [...this.segments.keys()]) {
      if (!this.flats.has(flatId)) {
        for (const s of this.segments.get(flatId)!) out.segmentDeletes.push({ flatId, startDay: s.startDay });
        this.segments.delete(flatId);
      }
    }
    // a partial snapshot within `grace` snapshots after the change reads the flats' state before it (§10.4):
    // what it makes present moves with the change, and so on along a run of partial snapshots
    let hi = elsewhere ? n - 1 : x;
    for (let k = hi + 1; k < n && k <= hi + g; k++) if (this.partial.has(this.dates[k])) hi = k;
    const cubeFrom = Math.max(0, x - g - 1);
    const cubeTo = Math.min(n - 1, hi + g + 1);
    const days = this.dates.slice(cubeFrom, cubeTo + 1);
    const cubes = this.cubesFor(days);
    days.forEach((d, i) => out.cubes.set(d, cubes[i]));
    for (let k = x; k <= Math.min(n - 1, hi + g); k++) {
      const events: FlatEvent[] = [];
      for (const h of touched) events.push(...flatEventsAt(h, this.dates, k, g, this.carry));
      events.sort(compareEvents);
      out.events.set(this.dates[k], events);
    }
    return out;
  }

  /** Cubes of the given snapshot days (ascending), scanning each flat's segments from the end. */
  cubesFor(days: number[]): CubeCell[][] {
    const perDay = days.map(() => new Map<string, CubeCell>());
    if (days.length === 0) return [];
    const first = days[0];
    const last = days[days.length - 1];
    for (const segs of this.segments.values()) {
      for (let j = segs.length - 1; j >= 0; j--) {
        const s = segs[j];
        const end = s.endDay ?? Number.POSITIVE_INFINITY;
        if (end < first) break;
        if (s.startDay > last) continue;
        const from = lowerBound(days, s.startDay);
        if (from >= days.length || days[from] > end) continue;
        const share = cellShare(s.rec);
        for (let i = from; i < days.length && days[i] <= end; i++) addShare(perDay[i], share);
      }
    }
    return perDay.map(sortedCells);
  }

  /**
   * Recomputes every derived datum of the project from the observation log (rebuild, batch imports):
   * the same functions as the incremental path, over all flats and all snapshots.
   */
  recomputeAll(): { cubes: Map<number, CubeCell[]>; events: Map<number, FlatEvent[]> } {
    if (this.known) throw new Error('a model of an append window does not hold the whole history');
    const dayIndex = dayIndexOf(this.dates);
    const n = this.dates.length;
    const partialKs = this.updatePartial().ks;
    this.segments.clear();
    const effective = [...this.flats.values()].map((raw) => this.effective(raw, partialKs));
    for (const h of effective) {
      const segs = toDaySegments(
        h.flatId,
        activityRuns(h, dayIndex, this.dates, this.grace, this.carry),
        this.dates,
        this.carry,
      );
      if (segs.length) this.segments.set(h.flatId, segs);
    }
    const cubeList = this.cubesFor(this.dates);
    const cubes = new Map<number, CubeCell[]>();
    this.dates.forEach((d, i) => cubes.set(d, cubeList[i]));
    const events = new Map<number, FlatEvent[]>();
    for (let k = 0; k < n; k++) events.set(this.dates[k], []);
    const flats = effective.sort((a, b) => a.flatId - b.flatId);
    for (const h of flats) {
      // a flat can only have events from its first row to a grace period after its last
      const first = lowerBound(this.dates, h.rows[0].day);
      for (let k = Math.max(1, first); k < n; k++)
        events.get(this.dates[k])!.push(...flatEventsAt(h, this.dates, k, this.grace, this.carry));
    }
    return { cubes, events };
  }

  /**
   * Recomputes which snapshots are partial (§10.4) from the listed counts: the indices of the partial ones
   * and the days whose flag changed since the last time.
   */
  updatePartial(): { ks: number[]; changed: number[] } {
    const sizes = this.dates.map((day) => ({
      day,
      flats: this.sizes.get(day) ?? 0,
      complete: this.completes.has(day),
    }));
    const fresh = new Set(partialScans(sizes, this.carry).map((p) => p.day));
    const changed = [...fresh].filter((d) => !this.partial.has(d));
    for (const d of this.partial) if (!fresh.has(d)) changed.push(d);
    this.partial = fresh;
    const ks = this.dates.flatMap((d, k) => (fresh.has(d) ? [k] : []));
    return { ks, changed };
  }

  /** The flat's log as §10.4 reads it: present with its previous record at the partial snapshots. */
  private effective(raw: FlatHistory, partialKs: number[]): FlatHistory {
    if (partialKs.length === 0) return raw;
    const rows = withPartialScans(raw.rows, this.dates, partialKs, this.grace, this.carry);
    return rows === raw.rows ? raw : { flatId: raw.flatId, rows };
  }

  /** Each flat's first presence (§10.5): the day of its first listed row; flats never listed have none. */
  firstPresences(): Map<number, number> {
    // an append moves no flat's first presence but a new one's
    const out = new Map<number, number>(this.known ?? []);
    for (const h of this.flats.values()) {
      if (this.known?.has(h.flatId)) continue;
      const row = h.rows.find((r) => r.rec !== null);
      if (row) out.set(h.flatId, row.day);
    }
    return out;
  }

  /** Observation rows and segments the model holds (what keeping it costs the heap). */
  objects(): number {
    let n = 0;
    for (const h of this.flats.values()) n += h.rows.length;
    for (const segs of this.segments.values()) n += segs.length;
    return n;
  }

  /** Every segment of the project, each flat's in day order (the whole timeline, for rebuilds and tests). */
  allSegments(): Segment[][] {
    return [...this.segments.values()];
  }
}

/** A day's events in flat order; a flat's price change, then its area change, then its promotion's. */
function compareEvents(a: FlatEvent, b: FlatEvent): number {
  return a.flatId - b.flatId || EVENT_RANK[a.kind] - EVENT_RANK[b.kind];
}
const EVENT_RANK: Record<FlatEvent['kind'], number> = {
  NEW: 0,
  REMOVED: 0,
  PRICE_UP: 0,
  PRICE_DOWN: 0,
  AREA_CHANGED: 1,
  PROMO_STARTED: 2,
  PROMO_ENDED: 2,
};

function diffSegments(stored: Segment[], fresh: Segment[], out: DerivedChanges): void {
  const byStart = new Map<number, Segment>();
  for (const s of stored) byStart.set(s.startDay, s);
  for (const s of fresh) {
    const old = byStart.get(s.startDay);
    if (old && old.endDay === s.endDay && sameRecord(old.rec, s.rec)) {
      byStart.delete(s.startDay);
      continue;
    }
    if (old) {
      out.segmentDeletes.push({ flatId: old.flatId, startDay: old.startDay });
      byStart.delete(s.startDay);
    }
    out.segmentInserts.push(s);
  }
  for (const old of byStart.values()) out.segmentDeletes.push({ flatId: old.flatId, startDay: old.startDay });
}
