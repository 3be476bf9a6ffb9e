import { STATS_GROUP_KEYS, STATS_MAP_KEYS, STATS_PRICE_KEYS, type StatsStatus } from '@cena-metra/contract';
import { countLabels } from '../analytics/stats.js';
import { fromDay } from '../lib/days.js';
import type { ChunkedBody, SeriesJson, Track } from './stats-json.js';

/** A figure by snapshot: NaN where the snapshot has none. */
type Figure = Float64Array;

/** A group's figures by snapshot: its three prices, and each price map's keys (in the order first met). */
interface GroupFigures {
  prices: Figure[];
  maps: Map<string, Figure>[];
}

interface Figures {
  groups: GroupFigures[];
  counts: Figure[];
  /** 1 where the snapshot has a point in some series */
  any: Uint8Array;
  bytes: number;
}

/** The points of a track by snapshot (null where it has none), parsed as one JSON array. */
function pointsOf(t: Track, n: number): (Record<string, unknown> | null)[] {
  const end = t.start[n];
  const parsed =
    end > 0 ? (JSON.parse(`[${t.buf.toString('utf8', 0, end - 1)}]`) as Record<string, unknown>[]) : [];
  let next = 0;
  return Array.from({ length: n }, (_, k) => (t.body[k] >= 0 ? parsed[next++] : null));
}

const figure = (n: number) => new Float64Array(n).fill(Number.NaN);

function figuresOf(tracks: { groups: Track[]; counts: Track[] }, n: number): Figures {
  const any = new Uint8Array(n);
  let bytes = n;
  const groups = tracks.groups.map((t) => {
    const prices = STATS_PRICE_KEYS.map(() => figure(n));
    const maps = STATS_MAP_KEYS.map(() => new Map<string, Figure>());
    pointsOf(t, n).forEach((p, k) => {
      if (!p) return;
      any[k] = 1;
      STATS_PRICE_KEYS.forEach((key, i) => {
        prices[i][k] = p[key] as number;
      });
      STATS_MAP_KEYS.forEach((key, i) => {
        for (const [name, v] of Object.entries(p[key] as Record<string, number>)) {
          const f = maps[i].get(name) ?? figure(n);
          if (!maps[i].has(name)) maps[i].set(name, f);
          f[k] = v;
        }
      });
    });
    bytes += 8 * n * (prices.length + maps.reduce((sum, m) => sum + m.size, 0));
    return { prices, maps };
  });
  const counts = tracks.counts.map((t) => {
    const f = figure(n);
    pointsOf(t, n).forEach((p, k) => {
      if (!p) return;
      any[k] = 1;
      f[k] = p.count as number;
    });
    bytes += 8 * n;
    return f;
  });
  return { groups, counts, any, bytes };
}

/** A figure over the answer's snapshots as a JSON array: `null` where it has none. */
function column(f: Figure, ks: Int32Array): string {
  let s = '[';
  for (let i = 0; i < ks.length; i++) {
    const v = f[ks[i]];
    if (i) s += ',';
    s += Number.isNaN(v) ? 'null' : String(v);
  }
  return `${s}]`;
}

function present(f: Figure, ks: Int32Array): boolean {
  for (let i = 0; i < ks.length; i++) if (!Number.isNaN(f[ks[i]])) return true;
  return false;
}

/**
 * The stats answer in columns (contract `StatsColumns`, DESIGN §12.2) from the same kept series as the
 * seed's shape (read/stats-json.ts): each snapshot's points are parsed once per status into figures by
 * snapshot, and an answer picks the snapshot of each of its days. `expandStatsColumns` of the body is the
 * seed's answer for the same request, point for point (tested).
 */
export class SeriesColumns {
  private readonly figures: Partial<Record<StatsStatus, Figures>> = {};
  /** bytes held by the figures parsed so far */
  bytes = 0;

  constructor(
    private readonly json: SeriesJson,
    private readonly snapshots: number,
  ) {}

  private figuresOf(status: StatsStatus): Figures {
    let f = this.figures[status];
    if (!f) {
      f = figuresOf(this.json.tracksOf(status), this.snapshots);
      this.figures[status] = f;
      this.bytes += f.bytes;
    }
    return f;
  }

  /** The answer for [from, to] under `status` with the given summary table (JSON), as UTF-8 JSON. */
  body(from: number, to: number, summaryJson: string, status: StatsStatus = 'ALL'): ChunkedBody {
    const f = this.figuresOf(status);
    const dates: string[] = [];
    const picked: number[] = [];
    this.json.eachDay(from, to, (day, k) => {
      if (!f.any[k]) return;
      dates.push(`"${fromDay(day)}"`);
      picked.push(k);
    });
    const ks = Int32Array.from(picked);
    const parts = [`{"dates":[${dates.join(',')}]`];
    STATS_GROUP_KEYS.forEach((g, gi) => {
      const { prices, maps } = f.groups[gi];
      const figures = STATS_PRICE_KEYS.map((key, i) => `"${key}":${column(prices[i], ks)}`);
      STATS_MAP_KEYS.forEach((key, i) => {
        const keys: string[] = [];
        for (const [name, values] of maps[i])
          if (present(values, ks)) keys.push(`${JSON.stringify(name)}:${column(values, ks)}`);
        figures.push(`"${key}":{${keys.join(',')}}`);
      });
      parts.push(`"${g}":{${figures.join(',')}}`);
    });
    const counts = countLabels(status).map(
      (label, c) => `{"label":${JSON.stringify(label)},"counts":${column(f.counts[c], ks)}}`,
    );
    parts.push(`"flatsCountList":[${counts.join(',')}]`, `"shortFlatSummaryList":${summaryJson}}`);
    const buf = Buffer.from(parts.join(','), 'utf8');
    return { chunks: [buf], length: buf.length, gathered: buf.length };
  }
}
