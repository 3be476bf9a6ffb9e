import type { RoomGroup } from '@cena-metra/contract';
import { lastCarriedDay } from './carry.js';
import {
  finishOf,
  floorBandOf,
  type HedonicObservation,
  keysBandOf,
  type ProjectPeriodSums,
  roomGroupOf,
  SUMS_LENGTH,
  sumsAdder,
} from './hedonic.js';
import type { Segment } from './types.js';

/**
 * The hedonic model's observations of a project (DESIGN §12.4): one per flat and month, its record on the
 * month's last day with data (§10.1) — the month's end, or the last day its latest list before it carries
 * to, and never after the project's latest list — for the flats active that day.
 */

/** Months since January 1970, of a day (days since 1970-01-01). */
export function monthOfDay(day: number): number {
  const d = new Date(day * 86_400_000);
  return (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
}

/** The first day of a month. */
export function monthStartDay(month: number): number {
  return Date.UTC(1970 + Math.floor(month / 12), month % 12, 1) / 86_400_000;
}

/** The last day of a month. */
export const monthEndDay = (month: number): number => monthStartDay(month + 1) - 1;

/**
 * The periods of the index: months (the kept ones, DESIGN §12.4) or weeks from Monday (when asked), each a
 * number, its first and its last day.
 */
export interface PeriodCalendar {
  of(day: number): number;
  start(period: number): number;
  end(period: number): number;
}

export const MONTHS: PeriodCalendar = { of: monthOfDay, start: monthStartDay, end: monthEndDay };

/** Weeks from Monday: 1970-01-01 was a Thursday, so week 0 began on Monday 1969-12-29 (day −3). */
export const WEEKS: PeriodCalendar = {
  of: (day) => Math.floor((day + 3) / 7),
  start: (week) => week * 7 - 3,
  end: (week) => week * 7 + 3,
};

/**
 * The day whose state stands for a period in a project with lists on `dates` (ascending): the period's last
 * day with data; null when the period has none.
 */
export function periodDay(
  dates: readonly number[],
  start: number,
  end: number,
  carry: number,
): number | null {
  let k = dates.length - 1;
  while (k >= 0 && dates[k] > end) k--;
  if (k < 0) return null;
  // §10.1 in its one place: the last day the period's latest list carries to (none past the project's last)
  const day = Math.min(end, lastCarriedDay(dates[k], dates[k + 1] ?? null, carry));
  return day >= start ? day : null;
}

/** The month's day (`periodDay` of a month). */
export const monthDay = (dates: readonly number[], month: number, carry: number): number | null =>
  periodDay(dates, monthStartDay(month), monthEndDay(month), carry);

/**
 * The project's observations in periods [from, to] (months unless `calendar` says weeks): the flats active on
 * each period's day, with the floor band against the highest floor listed in the flat's building that day
 * (the top floor the list shows) and the months to keys from the period's end.
 */
export function monthObservations(
  projectId: number,
  dates: readonly number[],
  segments: Iterable<readonly Segment[]>,
  carry: number,
  from: number,
  to: number,
  calendar: PeriodCalendar = MONTHS,
): HedonicObservation[] {
  // the periods with a day, ascending (their days ascend with them)
  const periods: number[] = [];
  const days: number[] = [];
  for (let m = from; m <= to; m++) {
    const day = periodDay(dates, calendar.start(m), calendar.end(m), carry);
    if (day === null) continue;
    periods.push(m);
    days.push(day);
  }
  const active: { month: number; s: Segment }[] = [];
  // in flat order, whatever order the segments come in: the sums add them so
  const flats = [...segments].filter((f) => f.length > 0).sort((a, b) => a[0].flatId - b[0].flatId);
  for (const flat of flats)
    for (const s of flat) {
      // the first period whose day the segment reaches, then on while it runs
      let i = 0;
      let hi = days.length;
      while (i < hi) {
        const mid = (i + hi) >> 1;
        if (days[mid] < s.startDay) i = mid + 1;
        else hi = mid;
      }
      for (; i < days.length && (s.endDay === null || days[i] <= s.endDay); i++)
        active.push({ month: periods[i], s });
    }
  const top = new Map<string, number>();
  for (const { month, s } of active) {
    if (s.rec.floor === null) continue;
    const key = `${month}\u0001${s.rec.building}`;
    top.set(key, Math.max(top.get(key) ?? s.rec.floor, s.rec.floor));
  }
  return active
    .filter(({ s }) => s.rec.area > 0 && s.rec.price > 0)
    .map(({ month, s }) => ({
      period: month,
      project: projectId,
      flat: s.flatId,
      price: s.rec.price,
      area: s.rec.area,
      roomGroup: roomGroupOf(s.rec.rooms),
      floorBand: floorBandOf(s.rec.floor, top.get(`${month}\u0001${s.rec.building}`) ?? null),
      finish: finishOf(s.rec.facing),
      keysBand: keysBandOf(s.rec.settlementDate, calendar.end(month)),
    }));
}

/** The codes (and blocks of a kept month) of each of the product's rooms groups: the whole market, all four. */
export const ROOM_GROUP_BLOCKS_OF: Record<RoomGroup, readonly number[]> = {
  all: [0, 1, 2, 3],
  studio: [0],
  one: [1],
  two: [2],
  threeAndMore: [3],
};

/** The rooms groups' order in a kept month (studio, one, two, three and more): a block of sums each. */
export const ROOM_GROUP_BLOCKS = 4;

/**
 * The project's sums (analytics/hedonic.ts) of each month in [from, to] with observations, a block of
 * SUMS_LENGTH for each rooms group one after another (an empty group's all zeros): a rooms filter reads its
 * block, the whole market adds the four.
 */
export function projectMonthSums(
  projectId: number,
  dates: readonly number[],
  segments: Iterable<readonly Segment[]>,
  carry: number,
  from: number,
  to: number,
  calendar: PeriodCalendar = MONTHS,
): ProjectPeriodSums[] {
  const observations = monthObservations(projectId, dates, segments, carry, from, to, calendar).sort(
    (a, b) => a.period - b.period || a.flat - b.flat,
  );
  const out: ProjectPeriodSums[] = [];
  const add = sumsAdder();
  for (const o of observations) {
    let month = out.at(-1);
    if (!month || month.period !== o.period) {
      month = {
        project: projectId,
        period: o.period,
        sums: new Float64Array(ROOM_GROUP_BLOCKS * SUMS_LENGTH),
      };
      out.push(month);
    }
    add(month.sums, o.roomGroup * SUMS_LENGTH, o);
  }
  return out;
}

/** A kept month's sums of the rooms groups `groups` (codes), added in their order. */
export function sumsOfGroups(month: ProjectPeriodSums, groups: readonly number[]): ProjectPeriodSums {
  const sums = new Float64Array(SUMS_LENGTH);
  for (const g of groups) {
    const at = g * SUMS_LENGTH;
    for (let i = 0; i < SUMS_LENGTH; i++) sums[i] += month.sums[at + i];
  }
  return { project: month.project, period: month.period, sums };
}

/** As `sumsOfGroups`, a one-group block as a view of the month's sums (the same doubles, not copied). */
export function groupSums(month: ProjectPeriodSums, groups: readonly number[]): ProjectPeriodSums {
  if (groups.length !== 1) return sumsOfGroups(month, groups);
  const at = groups[0] * SUMS_LENGTH;
  return { project: month.project, period: month.period, sums: month.sums.subarray(at, at + SUMS_LENGTH) };
}
