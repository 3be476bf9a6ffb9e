import { STATS_GROUP_KEYS, STATS_MAP_KEYS, STATS_PRICE_KEYS, type StatsStatus } from '@cena-metra/contract';
import { countLabels } from '../analytics/stats.js';
import type { ColumnsMonth } from '../db/kept-columns.js';
import { fromDay } from '../lib/days.js';
import { BodyWriter, type ChunkedBody, type SeriesJson } from './stats-json.js';

/** A kept month of columns with its snapshot days. */
export interface KeptColumns {
  days: number[];
  columns: ColumnsMonth;
  /** the length of the month's columns as JSON (what is held of it) */
  bytes: number;
}

/** The months of a status, and each snapshot's month and place in it. */
interface Laid {
  months: KeptColumns[];
  monthOf: Int32Array;
  placeOf: Int32Array;
  /** 0 where the snapshot has no point in any series (not a day of an answer) */
  any: Uint8Array;
}

/** The answer's snapshots in one month: their places in it, and whether they are the whole month in order. */
interface Piece {
  month: number;
  places: number[];
  whole: boolean;
}

const nulls = (n: number) => new Array<string>(n).fill('null').join(',');

/**
 * The stats answer in columns (contract `StatsColumns`, DESIGN §12.2) from the kept months of columns
 * (db/kept-columns.ts): a figure's column is its months' texts joined — a month the answer takes whole as it
 * is kept, an edge month (or one with carried days) cut by its values. No number is parsed or written: a
 * first request reads and joins. `expandStatsColumns` of the body is the seed's answer for the same request
 * (tested against it, and the oracle's random markets).
 */
export class SeriesColumns {
  private readonly laid: Partial<Record<StatsStatus, Laid>> = {};
  /** bytes held by the months read so far (their texts) */
  bytes = 0;

  constructor(
    /** the project's snapshot days (its range walk: which snapshot each day of a range takes) */
    private readonly json: SeriesJson,
    /** the kept months of columns of a status, in order, asked for on its first answer */
    private readonly monthsOf: (status: StatsStatus) => KeptColumns[],
  ) {}

  private laidOut(status: StatsStatus): Laid {
    let l = this.laid[status];
    if (!l) {
      const months = this.monthsOf(status);
      const n = months.reduce((sum, m) => sum + m.days.length, 0);
      const monthOf = new Int32Array(n);
      const placeOf = new Int32Array(n);
      const any = new Uint8Array(n).fill(1);
      let k = 0;
      months.forEach((m, mi) => {
        for (const e of m.columns.e) any[k + e] = 0;
        for (let j = 0; j < m.days.length; j++, k++) {
          monthOf[k] = mi;
          placeOf[k] = j;
        }
        this.bytes += m.bytes;
      });
      l = { months, monthOf, placeOf, any };
      this.laid[status] = l;
    }
    return l;
  }

  /** The answer for [from, to] under `status` with the given summary table (JSON), as UTF-8 JSON. */
  body(from: number, to: number, summaryJson: string, status: StatsStatus = 'ALL'): ChunkedBody {
    const l = this.laidOut(status);
    const dates: string[] = [];
    const pieces: Piece[] = [];
    this.json.eachDay(from, to, (day, k) => {
      if (!l.any[k]) return;
      dates.push(fromDay(day));
      const month = l.monthOf[k];
      let last = pieces.at(-1);
      if (last?.month !== month) {
        last = { month, places: [], whole: false };
        pieces.push(last);
      }
      last.places.push(l.placeOf[k]);
    });
    for (const p of pieces)
      p.whole =
        p.places.length === l.months[p.month].days.length && p.places.every((place, i) => place === i);
    // a month's figure cut into its values, once per answer
    const cut = new Map<string, string[]>();
    const valuesOf = (p: Piece, id: string, text: string) => {
      const key = `${p.month}:${id}`;
      let values = cut.get(key);
      if (!values) {
        values = text.split(',');
        cut.set(key, values);
      }
      return values;
    };
    /**
     * A figure over the answer's days (`textOf` gives a month's text, undefined where it has none), written as
     * it goes: each month's text is copied into the body once — not joined into strings that are joined again
     * and then encoded (~4 copies of the body).
     */
    const column = (w: BodyWriter, id: string, textOf: (m: ColumnsMonth) => string | undefined) => {
      w.ascii('[');
      pieces.forEach((p, i) => {
        if (i) w.ascii(',');
        const text = textOf(l.months[p.month].columns);
        if (text === undefined) w.ascii(nulls(p.places.length));
        else if (p.whole) w.text(text);
        else {
          const values = valuesOf(p, id, text);
          w.text(p.places.map((j) => values[j]).join(','));
        }
      });
      w.ascii(']');
    };
    const present = (id: string, textOf: (m: ColumnsMonth) => string | undefined) =>
      pieces.some((p) => {
        const text = textOf(l.months[p.month].columns);
        if (text === undefined) return false;
        if (p.whole) return true;
        const values = valuesOf(p, id, text);
        return p.places.some((j) => values[j] !== 'null');
      });
    return BodyWriter.build((w) => {
      w.ascii(`{"dates":${JSON.stringify(dates)}`);
      STATS_GROUP_KEYS.forEach((g, gi) => {
        w.ascii(`,"${g}":{`);
        STATS_PRICE_KEYS.forEach((key, i) => {
          w.ascii(`${i ? ',' : ''}"${key}":`);
          column(w, `${gi}p${i}`, (m) => m.groups[gi].p[i]);
        });
        STATS_MAP_KEYS.forEach((key, i) => {
          // the keys in the order first met over the answer's months
          const names = new Set<string>();
          for (const p of pieces)
            for (const name in l.months[p.month].columns.groups[gi].m[i]) names.add(name);
          w.ascii(`,"${key}":{`);
          let first = true;
          for (const name of names) {
            const id = `${gi}m${i}:${name}`;
            const textOf = (m: ColumnsMonth) => {
              const map = m.groups[gi].m[i];
              return Object.hasOwn(map, name) ? map[name] : undefined;
            };
            if (!present(id, textOf)) continue;
            w.text(`${first ? '' : ','}${JSON.stringify(name)}:`);
            column(w, id, textOf);
            first = false;
          }
          w.ascii('}');
        });
        w.ascii('}');
      });
      w.ascii(',"flatsCountList":[');
      countLabels(status).forEach((label, c) => {
        w.text(`${c ? ',' : ''}{"label":${JSON.stringify(label)},"counts":`);
        column(w, `c${c}`, (m) => m.c[c]);
        w.ascii('}');
      });
      w.ascii('],"shortFlatSummaryList":');
      w.text(summaryJson);
      w.ascii('}');
    });
  }
}
