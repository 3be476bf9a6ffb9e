import { buildingKey, type DiscountPeriod, type StatsColumns, type StatsStatus } from '@cena-metra/contract';
import type { CubeCell } from '../src/analytics/cube.js';
import { discountedFlats, projectDiscountSummary } from '../src/analytics/discounts.js';
import type { FlatEvent } from '../src/analytics/events.js';
import { ProjectModel } from '../src/analytics/model.js';
import { paceSummary } from '../src/analytics/pace-summary.js';
import { projectPace, unionIndex, unionPace } from '../src/analytics/pace-union.js';
import {
  countLabels,
  GROUPS,
  recordCounts,
  shortFlatSummary,
  statsResponseOf,
  statsSeries,
} from '../src/analytics/stats.js';
import type { FlatRecord } from '../src/analytics/types.js';
import { flatOnDay, lastDataDay } from '../src/analytics/windows.js';
import { monthOf } from '../src/db/kept.js';
import { columnsOfTexts, decodeColumnsMonth, encodeColumnsMonth } from '../src/db/kept-columns.js';
import { layoutSeriesMonth, monthLayout } from '../src/db/kept-series.js';
import { renderSeriesDay } from '../src/derive/series.js';
import { SeriesColumns } from '../src/read/stats-columns.js';
import { joined, SeriesJson } from '../src/read/stats-json.js';
import type { OracleSnapshot } from './oracle.js';

/** The engine fed the way the importer feeds it: snapshots in the given order, incremental derived state. */
export class EngineUnderTest {
  model: ProjectModel;
  ids = new Map<string, number>();
  cubes = new Map<number, CubeCell[]>();
  events = new Map<number, FlatEvent[]>();

  constructor(grace: number, carry: number) {
    this.model = new ProjectModel(1, grace, 0, carry);
  }

  apply(snapshot: OracleSnapshot): void {
    const state = new Map<number, FlatRecord>();
    for (const [id, rec] of snapshot.flats) {
      if (!this.ids.has(id)) this.ids.set(id, this.ids.size + 1);
      // the importer keys buildings in validation (§10.3): the engine gets «3» for «Корпус 3»
      state.set(this.ids.get(id)!, { ...rec, building: buildingKey(rec.building) });
    }
    this.model.applySnapshot(snapshot.day, state, snapshot.complete);
    const derived = this.model.recompute(snapshot.day);
    for (const [day, cells] of derived.cubes) this.cubes.set(day, cells);
    for (const [day, events] of derived.events) this.events.set(day, events);
  }

  /**
   * §10.5–10.6 as the product reads them for `status`: the project's pace and the index of all its flats
   * (the routes of /api/project/pace and /index), and the union of one with its index and ppm (the market's
   * and the comparison's way) — all from the project's pace summaries.
   */
  pace(
    from: number,
    to: number,
    status: StatsStatus,
    source: { model: ProjectModel; events: Map<number, FlatEvent[]> } = this,
  ) {
    const m = source.model;
    const firstSeen = m.firstPresences();
    const accept = (rec: FlatRecord) => recordCounts(rec, status);
    const segments = m.allSegments();
    const summary = paceSummary(segments, source.events, firstSeen, m.dates, m.carry, accept);
    // the index counts every flat of the rooms group, whatever its status
    const all = paceSummary(segments, source.events, firstSeen, m.dates, m.carry, () => true);
    return {
      series: projectPace(summary, from, to),
      index: unionIndex([all], from, to),
      union: unionPace([summary], from, to),
    };
  }

  rebuilt() {
    const copy = new ProjectModel(1, this.model.grace, 0, this.model.carry);
    copy.dates = [...this.model.dates];
    copy.flats = this.model.flats;
    copy.sizes = this.model.sizes;
    copy.completes = this.model.completes;
    return { model: copy, ...copy.recomputeAll() };
  }

  stats(
    from: number,
    to: number,
    source: { model: ProjectModel; cubes: Map<number, CubeCell[]> } = this,
    status: StatsStatus = 'ALL',
  ) {
    const days = source.model.dates;
    const series = statsSeries(
      days,
      days.map((d) => source.cubes.get(d)!),
      from,
      to,
      source.model.carry,
      status,
    );
    let summary: ReturnType<typeof shortFlatSummary> = [];
    const a = lastDataDay(days, to, source.model.carry);
    if (a !== null) {
      const flats = [...source.model.segments.values()]
        .map((segs) => flatOnDay(segs, a, days[days.length - 1]))
        .filter((f): f is NonNullable<typeof f> => f !== null && recordCounts(f.rec, status));
      summary = shortFlatSummary(flats);
    }
    return { series, summary };
  }

  /** §4.3 on day A: the discounted flats (by external id) and the project line. */
  discounts(a: number, period: DiscountPeriod, status: StatsStatus = 'ALL') {
    const days = this.model.dates;
    const flats = [...this.model.segments.values()]
      .map((segs) => flatOnDay(segs, a, days[days.length - 1]))
      .filter((f): f is NonNullable<typeof f> => f !== null && recordCounts(f.rec, status));
    const byId = new Map([...this.ids].map(([ext, id]) => [id, ext]));
    return {
      flats: discountedFlats(flats, period).map((d) => ({
        id: byId.get(d.flat.flatId)!,
        ref: d.refPrice,
        price: d.flat.rec.price,
        discount: d.discount,
      })),
      project: projectDiscountSummary(flats, period),
    };
  }

  /**
   * The API response as objects (getProjectStats' shape), as the JSON text the API sends, parsed, and in
   * the web's columns (`/project/stats/columns`), expanded back to the seed's shape.
   */
  responses(from: number, to: number, status: StatsStatus = 'ALL') {
    const { series, summary } = this.stats(from, to, this, status);
    const days = this.model.dates;
    // each day's series as the import keeps it and the reader reads it back
    const kept = new SeriesJson(
      days,
      // one month holding every day, laid out as kept: the reader's months are the same cut at month ends
      (s) => [
        monthLayout(
          layoutSeriesMonth(
            days,
            days.map((d) => renderSeriesDay(this.cubes.get(d)!, s)),
          ),
          days,
        ),
      ],
      this.model.carry,
    );
    const json = kept.response(from, to, JSON.stringify(summary), status);
    // the columns kept by calendar month, as the import keeps them: an answer cuts its edge months
    const byMonth = new Map<number, number[]>();
    for (const d of days) byMonth.set(monthOf(d), [...(byMonth.get(monthOf(d)) ?? []), d]);
    const columns = new SeriesColumns(kept, (s) =>
      [...byMonth.values()].map((ds) => ({
        days: ds,
        ...decodeColumnsMonth(
          encodeColumnsMonth(
            columnsOfTexts(
              ds.map((d) => renderSeriesDay(this.cubes.get(d)!, s)),
              GROUPS.length,
              countLabels(s).length,
            ),
          ),
        ),
      })),
    ).body(from, to, JSON.stringify(summary), status);
    const objects = statsResponseOf(series, summary);
    return {
      objects,
      parsedJson: JSON.parse(joined(json).toString('utf8')) as unknown,
      columns: JSON.parse(joined(columns).toString('utf8')) as StatsColumns,
    };
  }

  eventKeys(events: Map<number, FlatEvent[]>): Map<string, string[]> {
    const byId = new Map([...this.ids].map(([ext, id]) => [id, ext]));
    const out = new Map<string, string[]>();
    for (const day of this.model.dates) {
      const list = (events.get(day) ?? []).map((e) =>
        e.kind === 'AREA_CHANGED'
          ? `${e.kind}:${byId.get(e.flatId)}:${e.oldArea}:${e.rec.area}`
          : `${e.kind}:${byId.get(e.flatId)}:${e.oldPrice ?? ''}:${e.newPrice ?? ''}`,
      );
      out.set(new Date(day * 86_400_000).toISOString().slice(0, 10), list.sort());
    }
    return out;
  }
}
