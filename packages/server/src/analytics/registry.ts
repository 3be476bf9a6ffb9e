/**
 * The registry's derived figures (DESIGN §12.3) from an object's states by day: completion shifts, sold
 * share, registered sales by month (corrections apart), and a developer's «Надёжность сроков». Pure: the
 * states come in as plain facts, no storage and no HTTP here.
 */

/** What these figures read of an object's effective facts. */
export interface ShiftFacts {
  ready?: { day: string; quarter: boolean };
  transfer?: { day: string; quarter: boolean };
  flats?: number;
  soldShare?: number;
  salesTotal?: number;
  salesRealised?: number;
}

/** An object's state from `day` on. */
export interface StateAt {
  day: string;
  eff: ShiftFacts;
}

export interface Shift {
  /** `ready`: the declared completion; `transfer`: keys to buyers */
  field: 'ready' | 'transfer';
  /** the registry day the new date was first seen */
  day: string;
  from: string;
  to: string;
  /** + later, − earlier */
  months: number;
}

const lastOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * Months from one date to another: whole calendar months when both fall on the same day of the month or
 * both on a month's last day (quarters and month ends, as the registry declares), else days / 30.4375 to
 * one decimal.
 */
export function monthsBetween(from: string, to: string): number {
  const [y1, m1, d1] = from.split('-').map(Number);
  const [y2, m2, d2] = to.split('-').map(Number);
  if (d1 === d2 || (d1 === lastOfMonth(y1, m1) && d2 === lastOfMonth(y2, m2)))
    return (y2 - y1) * 12 + (m2 - m1);
  const days = (Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000;
  return Math.round((days / 30.4375) * 10) / 10;
}

/** Every change of the declared completion and of the keys' date, in day order. */
export function shiftsOf(states: readonly StateAt[]): Shift[] {
  const out: Shift[] = [];
  for (const field of ['ready', 'transfer'] as const) {
    let previous: string | undefined;
    for (const s of states) {
      const date = s.eff[field]?.day;
      if (date === undefined) continue;
      if (previous !== undefined && date !== previous)
        out.push({ field, day: s.day, from: previous, to: date, months: monthsBetween(previous, date) });
      previous = date;
    }
  }
  return out.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.field < b.field ? -1 : 1));
}

/** Flats and those sold by the facts: `sales_agg` where there is one, else the detail's sold share. */
export function soldOf(eff: ShiftFacts): { total: number; realised: number } | null {
  if (eff.salesTotal !== undefined && eff.salesRealised !== undefined)
    return { total: eff.salesTotal, realised: eff.salesRealised };
  if (eff.soldShare !== undefined && eff.flats !== undefined)
    return { total: eff.flats, realised: Math.round(eff.soldShare * eff.flats) };
  return null;
}

/** Sold share of several objects, flats-weighted (Σ realised / Σ total); null without any. */
export function soldShareOf(objects: readonly ShiftFacts[]): number | null {
  let total = 0;
  let realised = 0;
  for (const o of objects) {
    const sold = soldOf(o);
    if (!sold) continue;
    total += sold.total;
    realised += sold.realised;
  }
  return shareOf(realised, total);
}

/** Σ realised / Σ total to four decimals; null without flats. */
const shareOf = (realised: number, total: number) =>
  total > 0 ? Math.round((realised / total) * 10_000) / 10_000 : null;

const SHIFT_FACTS = ['ready', 'transfer', 'flats', 'soldShare', 'salesTotal', 'salesRealised'] as const;

/** The facts the figures read, of an object's effective facts (in one key order: the kept bytes). */
export function shiftFactsOf(eff: ShiftFacts): ShiftFacts {
  const out: ShiftFacts = {};
  for (const k of SHIFT_FACTS) if (eff[k] !== undefined) (out as Record<string, unknown>)[k] = eff[k];
  return out;
}

/**
 * An object's light history (kept, DESIGN §11.1): `prefix` (the history before the states replayed) and the
 * states after it, each kept only on a day the facts the figures read changed (the first always). Every
 * figure of this module reads the light history as it reads the full one.
 */
export function lightHistory(prefix: readonly StateAt[], states: readonly StateAt[]): StateAt[] {
  const out = [...prefix];
  // compared in one key order (a kept history comes back from the database in its own)
  let last = out.length ? JSON.stringify(shiftFactsOf(out[out.length - 1].eff)) : null;
  for (const s of states) {
    const eff = shiftFactsOf(s.eff);
    const json = JSON.stringify(eff);
    if (json === last) continue;
    out.push({ day: s.day, eff });
    last = json;
  }
  return out;
}

/** The state in force on `day` (the last from that day or before). */
export function stateOn(states: readonly StateAt[], day: string): StateAt | undefined {
  let found: StateAt | undefined;
  for (const s of states) {
    if (s.day > day) break;
    found = s;
  }
  return found;
}

export interface SalesMonth {
  /** YYYY-MM */
  month: string;
  /** flats registered sold in the month (the rises); null in the object's first month */
  sales: number | null;
  /** the falls of the month (a registry correction), never netted against sales */
  corrections: number;
  /** sold share at the month's last registry day */
  soldShare: number | null;
}

/** The last registry day of each month from the registry's days, in order. */
export function monthEnds(registryDays: readonly string[]): [month: string, day: string][] {
  const ends = new Map<string, string>();
  for (const d of [...registryDays].sort()) ends.set(d.slice(0, 7), d);
  return [...ends];
}

/**
 * Registered sales by month of a set of objects: each object's realised flats on the month's last registry
 * day less on the previous month's (nothing in its first month, or before it was seen); a rise is sales, a
 * fall a correction, summed apart over the objects (+15 and −2 are sales 15 and a correction of 2).
 */
export function salesByMonth(
  objects: Iterable<readonly StateAt[]>,
  registryDays: readonly string[],
): SalesMonth[] {
  const ends = monthEnds(registryDays);
  const n = ends.length;
  const sales: (number | null)[] = new Array(n).fill(null);
  const corrections: number[] = new Array(n).fill(0);
  const total: number[] = new Array(n).fill(0);
  const realised: number[] = new Array(n).fill(0);
  // object by object, each history read once in day order (the country's 12,000 objects, each decoded when
  // its turn comes: db/kept-history.ts), its figures added into each month's sums — for every month in the
  // objects' order, as a month-by-month pass over the objects adds them, so the same bits
  for (const states of objects) {
    let k = -1;
    // sold at the month end before (none: no state then, or no sold figure)
    let before: { total: number; realised: number } | null = null;
    for (let i = 0; i < n; i++) {
      const day = ends[i][1];
      // the state in force on the month's last registry day (stateOn)
      while (k + 1 < states.length && states[k + 1].day <= day) k++;
      const sold = k < 0 ? null : soldOf(states[k].eff);
      if (sold) {
        total[i] += sold.total;
        realised[i] += sold.realised;
        if (before) {
          const change = sold.realised - before.realised;
          sales[i] = (sales[i] ?? 0) + Math.max(0, change);
          corrections[i] += Math.max(0, -change);
        }
      }
      before = sold;
    }
  }
  return ends.map(([month], i) => ({
    month,
    sales: sales[i],
    corrections: corrections[i],
    soldShare: shareOf(realised[i], total[i]),
  }));
}

/** «Надёжность сроков» of a developer (or a group): over its objects' shifts of the declared completion. */
export interface Reliability {
  objects: number;
  /** objects whose completion was ever moved later */
  movedLater: number;
  movedLaterShare: number | null;
  /** months the completions moved (later +, earlier −) in the 12 months to `asOf`, summed and per shift */
  monthsLast12: number;
  meanMonthsLast12: number | null;
  shiftsLast12: number;
}

export function reliabilityOf(objectsShifts: readonly (readonly Shift[])[], asOf: string): Reliability {
  const [y, m, d] = asOf.split('-').map(Number);
  const since = new Date(Date.UTC(y - 1, m - 1, d)).toISOString().slice(0, 10);
  let movedLater = 0;
  let months = 0;
  let count = 0;
  for (const shifts of objectsShifts) {
    const ready = shifts.filter((s) => s.field === 'ready');
    if (ready.some((s) => s.months > 0)) movedLater++;
    for (const s of ready)
      if (s.day > since && s.day <= asOf) {
        months += s.months;
        count++;
      }
  }
  const n = objectsShifts.length;
  return {
    objects: n,
    movedLater,
    movedLaterShare: n ? Math.round((movedLater / n) * 10_000) / 10_000 : null,
    monthsLast12: Math.round(months * 10) / 10,
    meanMonthsLast12: count ? Math.round((months / count) * 10) / 10 : null,
    shiftsLast12: count,
  };
}
