import { fromDay } from '../lib/days.js';
import { type FlatHistory, type FlatRecord, type Segment, sameRecord } from './types.js';

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
 * Activity of one flat (DESIGN §4.1) as runs of snapshot indices: present snapshots are active; an absence
 * that follows a presence is bridged (active with the last present record) when it lasts fewer than
 * `grace` snapshots, whether the flat comes back afterwards or the absence runs to the last snapshot.
 */
export function activityRuns(history: FlatHistory, dayIndex: Map<number, number>, n: number, grace: number) {
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
      if (previousPresent && last && last.toK === fromK - 1 && absentFor < grace) last.toK = toK;
      previousPresent = false;
    }
  }
  return runs;
}

/** Index runs to day segments: index k covers the days from snapshot k to the day before snapshot k+1. */
export function toDaySegments(flatId: number, runs: IndexSegment[], dates: number[]): Segment[] {
  const n = dates.length;
  return runs.map((r) => ({
    flatId,
    startDay: dates[r.fromK],
    endDay: r.toK === n - 1 ? null : dates[r.toK + 1] - 1,
    rec: r.rec,
  }));
}

/** Every flat's activity segments for a project (the activity timeline of DESIGN §3.1). */
export function projectSegments(flats: Iterable<FlatHistory>, dates: number[], grace: number): Segment[][] {
  const dayIndex = dayIndexOf(dates);
  const out: Segment[][] = [];
  for (const flat of flats) {
    out.push(toDaySegments(flat.flatId, activityRuns(flat, dayIndex, dates.length, grace), dates));
  }
  return out;
}
