/**
 * A deliberately simple implementation of DESIGN §4, day by day, written from the words of the spec and
 * sharing no code with the engine. Slow on purpose: it recomputes activity from scratch for every flat on
 * every day.
 */
import type { FlatRecord } from '../src/analytics/types.js';

export interface OracleSnapshot {
  day: number;
  flats: Map<string, FlatRecord>;
  /** imported with `complete: true` (§10.4: never partial) */
  complete?: boolean;
}

/**
 * §10.4, read from its words: the snapshots that are partial — fewer flats than half the median count of
 * the previous snapshots within C days before (the last 10 of them, at least 3), unless imported complete.
 */
export function oraclePartialDays(snaps: OracleSnapshot[], carry: number): Set<number> {
  const out = new Set<number>();
  snaps.forEach((s, k) => {
    if (s.complete) return;
    const counts = snaps
      .slice(0, k)
      .filter((p) => s.day - p.day <= carry)
      .slice(-10)
      .map((p) => p.flats.size)
      .sort((a, b) => a - b);
    if (counts.length < 3) return;
    const m = counts.length;
    const median = m % 2 ? counts[(m - 1) / 2] : (counts[m / 2 - 1] + counts[m / 2]) / 2;
    if (s.flats.size < median / 2) out.add(s.day);
  });
  return out;
}

/** §10.3 as worded: spaces collapsed, a leading «корпус», «корп.» or «к.» (any case) removed. */
function oracleBuilding(name: string): string {
  const text = name.split(/\s+/).filter(Boolean).join(' ');
  for (const prefix of ['корпус', 'корп.', 'к.'])
    if (text.toLowerCase().startsWith(prefix)) {
      const rest = text.slice(prefix.length).trim();
      return rest || text;
    }
  return text;
}

function withBuildingKeys(s: OracleSnapshot): OracleSnapshot {
  const flats = new Map([...s.flats].map(([id, r]) => [id, { ...r, building: oracleBuilding(r.building) }]));
  return { ...s, flats };
}

/**
 * §10.4 applied to the lists: at a partial snapshot, every flat it leaves out that was active as known
 * at the snapshot before is listed with that record. Snapshots taken in date order, each seeing the lists
 * before it as already completed.
 */
export function oracleEffective(raw: OracleSnapshot[], grace: number, carry: number): OracleSnapshot[] {
  const snaps = raw.map(withBuildingKeys);
  const partial = oraclePartialDays(snaps, carry);
  const out: OracleSnapshot[] = [];
  snaps.forEach((s, k) => {
    if (!partial.has(s.day) || k === 0) {
      out.push(s);
      return;
    }
    const flats = new Map(s.flats);
    for (const id of allIds(out)) {
      if (flats.has(id)) continue;
      const before = recordOn(out, id, out[k - 1].day, grace, carry);
      if (before) flats.set(id, before);
    }
    out.push({ day: s.day, flats });
  });
  return out;
}

const DAY = 86_400_000;
const iso = (d: number) => new Date(d * DAY).toISOString().slice(0, 10);

function monthsBack(d: number, months: number): number {
  const date = new Date(d * DAY);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() - months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(date.getUTCDate(), last)) / DAY;
}

/**
 * §4.1 with §10.1: the flat's record on day d given the snapshots (sorted), or null when it is not active
 * (or the day has no data: more than C days after its latest snapshot).
 */
export function recordOn(
  snaps: OracleSnapshot[],
  id: string,
  d: number,
  grace: number,
  carry: number,
): FlatRecord | null {
  let k = -1;
  for (let i = 0; i < snaps.length; i++) if (snaps[i].day <= d) k = i;
  if (k < 0) return null;
  if (d - snaps[k].day > carry) return null;
  const here = snaps[k].flats.get(id);
  if (here) return here;
  let j = -1;
  for (let i = k - 1; i >= 0; i--)
    if (snaps[i].flats.has(id)) {
      j = i;
      break;
    }
  if (j < 0) return null;
  let m = -1;
  for (let i = k + 1; i < snaps.length; i++)
    if (snaps[i].flats.has(id)) {
      m = i;
      break;
    }
  const bridged = m >= 0 ? m - j - 1 < grace : snaps.length - 1 - j < grace;
  return bridged && snaps[k].day - snaps[j].day <= carry ? snaps[j].flats.get(id)! : null;
}

/** Whether day d has data: a snapshot on or before it, at most C days before, and not after the last. */
function hasData(snaps: OracleSnapshot[], d: number, carry: number): boolean {
  let k = -1;
  for (let i = 0; i < snaps.length; i++) if (snaps[i].day <= d) k = i;
  return k >= 0 && d <= snaps[snaps.length - 1].day && d - snaps[k].day <= carry;
}

/** A: the latest day ≤ to that has data, found day by day; null when none. */
export function oracleLastDataDay(snaps: OracleSnapshot[], to: number, carry: number): number | null {
  if (!snaps.length) return null;
  for (let d = to; d >= snaps[0].day; d--) if (hasData(snaps, d, carry)) return d;
  return null;
}

function allIds(snaps: OracleSnapshot[]): string[] {
  const ids = new Set<string>();
  for (const s of snaps) for (const id of s.flats.keys()) ids.add(id);
  return [...ids].sort();
}

const r2 = (x: number) => Math.round(x * 100) / 100;

function weighted(recs: FlatRecord[]): number {
  let p = 0;
  let a = 0;
  for (const r of recs) {
    p += r.price;
    a += r.area;
  }
  return r2(p / a);
}

function byKey(recs: FlatRecord[], key: (r: FlatRecord) => string) {
  const groups = new Map<string, FlatRecord[]>();
  for (const r of recs) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries([...groups].map(([k, v]) => [k, weighted(v)]));
}

const GROUPS: [string, (r: number) => boolean][] = [
  ['all', () => true],
  ['studio', (r) => r === 0],
  ['one', (r) => r === 1],
  ['two', (r) => r === 2],
  ['threeAndMore', (r) => r >= 3],
];

/** §10.2: under AVAILABLE a reserved lot counts nowhere; a lot without a status is available. */
const counted = (r: FlatRecord, status: 'ALL' | 'AVAILABLE') => status === 'ALL' || r.status !== 'RESERVED';

export function oracleStats(
  snaps: OracleSnapshot[],
  grace: number,
  from: number,
  to: number,
  carry: number,
  status: 'ALL' | 'AVAILABLE' = 'ALL',
) {
  const ids = allIds(snaps);
  const groups: Record<string, unknown[]> = Object.fromEntries(GROUPS.map(([g]) => [g, []]));
  // five room groups, and for ALL «Свободные» and «Забронированы»
  const counts: { date: string; count: number }[][] = (status === 'ALL' ? [...GROUPS, 0, 0] : GROUPS).map(
    () => [],
  );
  const first = snaps[0]?.day;
  const last = snaps[snaps.length - 1]?.day;
  for (let d = from; d <= to; d++) {
    if (first === undefined || d < first || d > last || !hasData(snaps, d, carry)) continue;
    const listed = ids
      .map((id) => recordOn(snaps, id, d, grace, carry))
      .filter((r): r is FlatRecord => r !== null);
    const active = listed.filter((r) => counted(r, status));
    if (status === 'ALL') {
      counts[5].push({ date: iso(d), count: listed.filter((r) => r.status !== 'RESERVED').length });
      counts[6].push({ date: iso(d), count: listed.filter((r) => r.status === 'RESERVED').length });
    }
    GROUPS.forEach(([g, accept], gi) => {
      const recs = active.filter((r) => accept(r.rooms));
      counts[gi].push({ date: iso(d), count: recs.length });
      if (recs.length === 0) return;
      const ppms = recs.map((r) => r.price / r.area);
      groups[g].push({
        date: iso(d),
        minMeterPrice: r2(Math.min(...ppms)),
        maxMeterPrice: r2(Math.max(...ppms)),
        avgMeterPrice: weighted(recs),
        avgMeterPriceByFacing: byKey(recs, (r) => r.facing),
        avgMeterPriceBySettlementDate: byKey(recs, (r) => r.settlementDate ?? 'null'),
        avgMeterPriceByBuilding: byKey(recs, (r) => r.building),
        avgMeterPriceByRoomsNumber: byKey(recs, (r) => String(r.rooms)),
      });
    });
  }
  // summary table on A = the latest day <= to that has data
  const summary: Record<string, unknown>[] = [];
  const a = oracleLastDataDay(snaps, to, carry);
  if (a !== null) {
    const windows = [a - 1, a - 7, monthsBack(a, 1), monthsBack(a, 12)];
    const rows = new Map<string, { recs: FlatRecord[]; d: number[] }>();
    for (const id of ids) {
      const rec = recordOn(snaps, id, a, grace, carry);
      if (!rec || !counted(rec, status)) continue;
      const d = windows.map((start) => {
        let ref = 0;
        for (let e = start; e <= a; e++) {
          const r = recordOn(snaps, id, e, grace, carry);
          if (r && r.price > ref) ref = r.price;
        }
        return Math.max(0, ((ref - rec.price) / ref) * 100);
      });
      const key = [rec.building, rec.settlementDate ?? 'null', rec.facing, rec.rooms].join('|');
      const row = rows.get(key) ?? { recs: [], d: [0, 0, 0, 0] };
      row.recs.push(rec);
      row.d = row.d.map((x, i) => Math.max(x, d[i]));
      rows.set(key, row);
    }
    for (const [id, row] of rows) {
      const ppms = row.recs.map((r) => r.price / r.area);
      summary.push({
        id,
        activeFlatsCount: row.recs.length,
        maxMeterPrice: r2(Math.max(...ppms)),
        avgMeterPrice: weighted(row.recs),
        minMeterPrice: r2(Math.min(...ppms)),
        maxDiscountLastDay: r2(row.d[0]),
        maxDiscount7Days: r2(row.d[1]),
        maxDiscount1Month: r2(row.d[2]),
        maxDiscount1Year: r2(row.d[3]),
      });
    }
  }
  return { groups, counts, summary };
}

/** §4.4: events at each snapshot as known then, keyed by date, each "kind:id:old:new". */
export function oracleEvents(snaps: OracleSnapshot[], grace: number, carry: number): Map<string, string[]> {
  const ids = allIds(snaps);
  const out = new Map<string, string[]>();
  for (let k = 1; k < snaps.length; k++) {
    const knownK = snaps.slice(0, k + 1);
    const knownPrev = snaps.slice(0, k);
    const events: string[] = [];
    for (const id of ids) {
      const now = recordOn(knownK, id, snaps[k].day, grace, carry);
      const before = recordOn(knownPrev, id, snaps[k - 1].day, grace, carry);
      if (now && !before) events.push(`NEW:${id}::${now.price}`);
      else if (before && !now) events.push(`REMOVED:${id}:${before.price}:`);
      else if (before && snaps[k].flats.has(id)) {
        const listed = snaps[k].flats.get(id)!;
        const p = listed.price;
        if (p !== before.price)
          events.push(`${p > before.price ? 'PRICE_UP' : 'PRICE_DOWN'}:${id}:${before.price}:${p}`);
        // §10.3: the area differs by 0.01 m² or more
        if (Math.abs(listed.area - before.area) >= 0.01 - 1e-9)
          events.push(`AREA_CHANGED:${id}:${before.area}:${listed.area}`);
      }
    }
    out.set(iso(snaps[k].day), events.sort());
  }
  if (snaps.length) out.set(iso(snaps[0].day), []);
  return out;
}

/** §4.3 brute force: flats active on A with discount > 0 over the window starting at windowStart(A). */
export function oracleDiscounts(
  snaps: OracleSnapshot[],
  grace: number,
  a: number,
  period: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR',
  carry: number,
  status: 'ALL' | 'AVAILABLE' = 'ALL',
) {
  const start = { DAY: a - 1, WEEK: a - 7, MONTH: monthsBack(a, 1), YEAR: monthsBack(a, 12) }[period];
  const out: { id: string; ref: number; price: number; discount: number }[] = [];
  for (const id of allIds(snaps)) {
    const rec = recordOn(snaps, id, a, grace, carry);
    if (!rec || !counted(rec, status)) continue;
    let ref = 0;
    for (let e = start; e <= a; e++) {
      const r = recordOn(snaps, id, e, grace, carry);
      if (r && r.price > ref) ref = r.price;
    }
    const discount = ((ref - rec.price) / ref) * 100;
    if (discount > 0) out.push({ id, ref, price: rec.price, discount });
  }
  return out.sort((x, y) => y.discount - x.discount || x.id.localeCompare(y.id));
}

/** One day of §10.5 pace, with the §10.6 index and the weighted average ppm of the flats counted. */
export interface OraclePacePoint {
  date: string;
  stock: number;
  new7: number;
  new30: number;
  gone7: number;
  gone30: number;
  absorption: number | null;
  monthsOfSupply: number | null;
  medianDaysOnMarket: number | null;
  medianStockAge: number | null;
  index: number;
  avgMeterPrice: number | null;
}

function oracleMedian(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * §10.5 and §10.6 from their words, day by day over [from, to], on the (effective) snapshots: the stock is
 * what §4.1 says is active on D; a window holds the events of §4.4 (as known then) of the snapshots in
 * (D − W, D], a NEW counted by its record as known at k, a REMOVED by its record as known at k − 1; `raw`
 * gives each flat's first presence. The index chains the days with data in the range.
 */
export function oraclePace(
  raw: OracleSnapshot[],
  snaps: OracleSnapshot[],
  grace: number,
  carry: number,
  from: number,
  to: number,
  status: 'ALL' | 'AVAILABLE',
): OraclePacePoint[] {
  const ids = allIds(snaps);
  const firstSeen = new Map<string, number>();
  for (const s of raw) for (const id of s.flats.keys()) if (!firstSeen.has(id)) firstSeen.set(id, s.day);
  // events as known at each snapshot, with the record each is counted by
  const events: { day: number; kind: 'NEW' | 'REMOVED'; id: string }[] = [];
  for (let k = 1; k < snaps.length; k++) {
    const knownK = snaps.slice(0, k + 1);
    const knownPrev = snaps.slice(0, k);
    for (const id of ids) {
      const now = recordOn(knownK, id, snaps[k].day, grace, carry);
      const before = recordOn(knownPrev, id, snaps[k - 1].day, grace, carry);
      if (now && !before && counted(now, status)) events.push({ day: snaps[k].day, kind: 'NEW', id });
      if (before && !now && counted(before, status)) events.push({ day: snaps[k].day, kind: 'REMOVED', id });
    }
  }
  const stockOn = (d: number) => {
    const out = new Map<string, FlatRecord>();
    if (!hasData(snaps, d, carry)) return null;
    for (const id of ids) {
      const rec = recordOn(snaps, id, d, grace, carry);
      if (rec && counted(rec, status)) out.set(id, rec);
    }
    return out;
  };
  const out: OraclePacePoint[] = [];
  let index = 100;
  let previous: Map<string, FlatRecord> | null = null;
  for (let d = from; d <= to; d++) {
    const stock = stockOn(d);
    if (!stock) continue;
    const inWindow = (w: number, kind: 'NEW' | 'REMOVED') =>
      events.filter(
        (e) => e.kind === kind && e.day > d - w && e.day <= d && (kind === 'NEW' || !stock.has(e.id)),
      );
    const gone30 = inWindow(30, 'REMOVED');
    const new30 = inWindow(30, 'NEW').length;
    const monthAgo = stockOn(d - 30);
    const stockBefore = monthAgo?.size ?? 0;
    const denominator = stockBefore + new30;
    if (previous) {
      let sum = 0;
      let n = 0;
      for (const [id, rec] of stock) {
        const was = previous.get(id);
        if (!was || Math.abs(was.area - rec.area) >= 0.01 - 1e-9) continue;
        sum += Math.log(rec.price / was.price);
        n++;
      }
      if (n) index *= Math.exp(sum / n);
    }
    previous = stock;
    let prices = 0;
    let areas = 0;
    for (const rec of stock.values()) {
      prices += rec.price;
      areas += rec.area;
    }
    out.push({
      date: iso(d),
      stock: stock.size,
      new7: inWindow(7, 'NEW').length,
      new30,
      gone7: inWindow(7, 'REMOVED').length,
      gone30: gone30.length,
      absorption: monthAgo && denominator ? r2((gone30.length / denominator) * 100) : null,
      monthsOfSupply: gone30.length ? r2(stock.size / gone30.length) : null,
      medianDaysOnMarket: oracleMedian(gone30.map((e) => e.day - firstSeen.get(e.id)!)),
      medianStockAge: oracleMedian([...stock.keys()].map((id) => d - firstSeen.get(id)!)),
      index: r2(index),
      avgMeterPrice: areas ? r2(prices / areas) : null,
    });
  }
  return out;
}
