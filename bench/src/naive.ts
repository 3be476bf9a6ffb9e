import type { StatsResponse, StatsStatus } from '@cena-metra/contract';
import { activityRuns, dayIndexOf, toDaySegments } from 'cena-metra/dist/src/analytics/activity.js';
import { addToCells, type CubeCell, sortedCells } from 'cena-metra/dist/src/analytics/cube.js';
import { withPartialScans } from 'cena-metra/dist/src/analytics/partial.js';
import { partialScans } from 'cena-metra/dist/src/analytics/quality.js';
import {
  countLabels,
  dayCounts,
  GROUPS,
  groupPoint,
  recordCounts,
  shortFlatSummary,
} from 'cena-metra/dist/src/analytics/stats.js';
import { DEFAULT_CARRY_DAYS, type FlatHistory, type Segment } from 'cena-metra/dist/src/analytics/types.js';
import { flatOnDay, lastDataDay } from 'cena-metra/dist/src/analytics/windows.js';
import type { Db } from 'cena-metra/dist/src/db/driver.js';
import { RECORD_COLUMNS, recordFromRow } from 'cena-metra/dist/src/db/records.js';
import { fromDay, toDay } from 'cena-metra/dist/src/lib/days.js';

/**
 * The §4.2 response computed the naive way, per request, from the stored observations only: read the
 * project's whole log, derive every flat's activity, then aggregate the active flats of every day of the
 * range. No derived table, no cache. The same rules as the engine: the carry-forward limit (§10.1), status
 * (§10.2), partial scans (§10.4). The benchmark compares the engine with this and checks they agree.
 */
export async function naiveStats(
  db: Db,
  projectId: number,
  from: string,
  to: string,
  grace: number,
  carry = DEFAULT_CARRY_DAYS,
  status: StatsStatus = 'ALL',
): Promise<StatsResponse> {
  const snapshots = await db.query<{ date: string; flats_count: number; complete: boolean }>(
    'select date, flats_count, complete from snapshot where project_id = $1 order by date',
    [projectId],
  );
  const dates = snapshots.map((r) => toDay(r.date));
  const partial = new Set(
    partialScans(
      snapshots.map((s) => ({ day: toDay(s.date), flats: s.flats_count, complete: s.complete })),
      carry,
    ).map((p) => p.day),
  );
  const partialKs = dates.flatMap((d, k) => (partial.has(d) ? [k] : []));
  const rows = await db.query<
    Record<string, never> & { flat_id: number; snapshot_date: string; present: boolean }
  >(
    `select flat_id, snapshot_date, present, ${RECORD_COLUMNS} from flat_observation
     where project_id = $1 order by flat_id, snapshot_date`,
    [projectId],
  );
  const histories = new Map<number, FlatHistory>();
  for (const r of rows) {
    let h = histories.get(r.flat_id);
    if (!h) {
      h = { flatId: r.flat_id, rows: [] };
      histories.set(r.flat_id, h);
    }
    h.rows.push({ day: toDay(r.snapshot_date), rec: r.present ? recordFromRow(r as never) : null });
  }
  const dayIndex = dayIndexOf(dates);
  const segments: Segment[][] = [];
  for (const raw of histories.values()) {
    const h = { flatId: raw.flatId, rows: withPartialScans(raw.rows, dates, partialKs, grace, carry) };
    segments.push(toDaySegments(h.flatId, activityRuns(h, dayIndex, dates, grace, carry), dates, carry));
  }

  const response: StatsResponse = {
    allRoomsData: { points: [] },
    studioData: { points: [] },
    oneRoomData: { points: [] },
    twoRoomsData: { points: [] },
    threeAndMoreRoomData: { points: [] },
    flatsCountList: countLabels(status).map((label) => ({ label, points: [] })),
    shortFlatSummaryList: [],
  };
  const byGroup = [
    response.allRoomsData,
    response.studioData,
    response.oneRoomData,
    response.twoRoomsData,
    response.threeAndMoreRoomData,
  ];
  if (dates.length === 0) return response;
  const last = dates[dates.length - 1];
  const start = Math.max(toDay(from), dates[0]);
  const end = Math.min(toDay(to), last);
  let k = 0;
  for (let day = start; day <= end; day++) {
    while (k + 1 < dates.length && dates[k + 1] <= day) k++;
    // a day more than C days after its snapshot has no data (§10.1)
    if (day - dates[k] > carry) continue;
    // the state of a day is its latest snapshot's: the flats active on that snapshot day
    const snapshotDay = dates[k];
    const cells = new Map<string, CubeCell>();
    for (const segs of segments)
      for (const s of segs)
        if (s.startDay <= snapshotDay && (s.endDay ?? last) >= snapshotDay) addToCells(cells, s.rec);
    const cube = sortedCells(cells);
    const date = fromDay(day);
    GROUPS.forEach((g, i) => {
      const point = groupPoint(cube, g, status);
      if (point) byGroup[i].points.push({ date, ...point });
    });
    dayCounts(cube, status).forEach((count, i) => response.flatsCountList[i].points.push({ date, count }));
  }
  const a = lastDataDay(dates, toDay(to), carry);
  if (a !== null) {
    response.shortFlatSummaryList = shortFlatSummary(
      segments
        .map((segs) => flatOnDay(segs, a, last))
        .filter((f) => f !== null && recordCounts(f.rec, status)) as NonNullable<
        ReturnType<typeof flatOnDay>
      >[],
    );
  }
  return response;
}
