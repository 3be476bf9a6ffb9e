import { fromDay } from '../lib/days.js';
import { carries, gapBetween, lastCarriedDay } from './carry.js';
import { DEFAULT_CARRY_DAYS, type FlatHistory, type FlatRecord, type Segment, sameRecord } from './types.js';

/** A run of snapshot indices [fromK, toK] on which a flat is active with one record. */
export interface IndexSegment {
  fromK: number;
  toK: number;
  rec: FlatRecord;
}

/** Maps each snapshot day to its index; throws on a row dated off the snapshot calendar (a storage bug). */
export function dayIndexOf(dates: number[]): Map<number, number> {
  const index = new Map<number, number>();
  dates.forEach((day, k) => index.set(day, k));
  return index;
}

function indexOf(dayIndex: Map<number, number>, day: number): number {
  const k = dayIndex.get(day);
  if (k === undefined) throw new Error(`observation dated ${fromDay(day)} has no snapshot`);
  return k;
}

/**
 * Activity of one flat (DESIGN §4.1, §10.1) as runs of snapshot indices: present snapshots are active; an
 * absence that follows a presence is bridged (active with the last present record) when it lasts fewer
 * than `grace` snapshots, whether the flat comes back afterwards or the absence runs to the last snapshot,
 * and only at snapshots at most `carry` days after the last presence.
 */
export function activityRuns(
  history: FlatHistory,
  dayIndex: Map<number, number>,
  dates: number[],
  grace: number,
  carry = DEFAULT_CARRY_DAYS,
) {
  const n = dates.length;
  const runs: IndexSegment[] = [];
  const rows = history.rows;
  let previousPresent = false;
  for (let i = 0; i < rows.length; i++) {
    const fromK = indexOf(dayIndex, rows[i].day);
    const toK = (i + 1 < rows.length ? indexOf(dayIndex, rows[i + 1].day) : n) - 1;
    if (toK < fromK) continue;
    const rec = rows[i].rec;
    const last = runs[runs.length - 1];
    if (rec) {
      if (last && last.toK === fromK - 1 && sameRecord(last.rec, rec)) last.toK = toK;
      else runs.push({ fromK, toK, rec });
      previousPresent = true;
    } else {
      const absentFor = toK - fromK + 1;
      if (previousPresent && last && last.toK === fromK - 1 && absentFor < grace) {
        // bridged only while within C days of the last presence (the bridged snapshots are a prefix)
        const seen = dates[last.toK];
        let k = fromK - 1;
        while (k < toK && carries(seen, dates[k + 1], carry)) k++;
        last.toK = k;
      }
      previousPresent = false;
    }
  }
  return runs;
}

/**
 * Index runs to day segments: index k covers the days from snapshot k to the day before snapshot k+1, but
 * at most `carry` days after it (§10.1: later days have no data), so a run across a gap is two segments.
 */
export function toDaySegments(
  flatId: number,
  runs: IndexSegment[],
  dates: number[],
  carry = DEFAULT_CARRY_DAYS,
): Segment[] {
  const n = dates.length;
  const out: Segment[] = [];
  for (const r of runs) {
    let start = r.fromK;
    for (let k = r.fromK; k <= r.toK; k++) {
      if (k === n - 1) {
        out.push({ flatId, startDay: dates[start], endDay: null, rec: r.rec });
        break;
      }
      // the run ends here, or a gap without data follows snapshot k
      if (k === r.toK || gapBetween(dates[k], dates[k + 1], carry)) {
        out.push({
          flatId,
          startDay: dates[start],
          endDay: lastCarriedDay(dates[k], dates[k + 1], carry),
          rec: r.rec,
        });
        start = k + 1;
      }
    }
  }
  return out;
}

/** Every flat's activity segments for a project (the activity timeline of DESIGN §3.1). */
export function projectSegments(
  flats: Iterable<FlatHistory>,
  dates: number[],
  grace: number,
  carry = DEFAULT_CARRY_DAYS,
): Segment[][] {
  const dayIndex = dayIndexOf(dates);
  const out: Segment[][] = [];
  for (const flat of flats) {
    out.push(toDaySegments(flat.flatId, activityRuns(flat, dayIndex, dates, grace, carry), dates, carry));
  }
  return out;
}
