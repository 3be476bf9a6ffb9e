import type { RoomGroup, StatsStatus } from '@cena-metra/contract';
import { carries } from '../analytics/carry.js';
import { countLabels, GROUPS } from '../analytics/stats.js';
import { DEFAULT_CARRY_DAYS } from '../analytics/types.js';
import type { SeriesDay } from '../db/kept.js';
import { fromDay } from '../lib/days.js';

const GROUP_KEYS: Record<RoomGroup, string> = {
  all: 'allRoomsData',
  studio: 'studioData',
  one: 'oneRoomData',
  two: 'twoRoomsData',
  threeAndMore: 'threeAndMoreRoomData',
};

/** Writes pieces twice: once to measure the body, once into a buffer of exactly that size. */
class BodyWriter {
  private out: Buffer | null = null;
  private at = 0;

  text(s: string): void {
    if (this.out) this.at += this.out.write(s, this.at, 'utf8');
    else this.at += Buffer.byteLength(s);
  }

  /** ASCII-only text (dates, digits, punctuation): one byte per character. */
  ascii(s: string): void {
    if (this.out) this.out.write(s, this.at, 'latin1');
    this.at += s.length;
  }

  bytes(b: Buffer, start: number, end: number): void {
    if (this.out) b.copy(this.out, this.at, start, end);
    this.at += end - start;
  }

  /** Takes back the last byte written (a list's trailing comma). */
  unwrite(): void {
    this.at--;
  }

  get length(): number {
    return this.at;
  }

  static build(emit: (w: BodyWriter) => void): Buffer {
    const measure = new BodyWriter();
    emit(measure);
    const writer = new BodyWriter();
    writer.out = Buffer.allocUnsafe(measure.at);
    emit(writer);
    if (writer.at !== measure.at) throw new Error('stats body: size changed between passes');
    return writer.out;
  }
}

/**
 * One series of the response (a room group's points, or a count's) for every snapshot: each snapshot's
 * point on its own day, as it is sent — `{"date":"…",…},` — one after another in one buffer, so the days of
 * consecutive daily snapshots are one slice. `start[k]` is where snapshot k's point starts (`start[n]` the
 * end), `body[k]` where it goes on after its date, −1 when the snapshot has no point there.
 */
interface Track {
  buf: Buffer;
  start: Int32Array;
  body: Int32Array;
}

function track(dates: string[], values: (string | null)[]): Track {
  const n = dates.length;
  const start = new Int32Array(n + 1);
  const body = new Int32Array(n).fill(-1);
  let size = 0;
  for (let k = 0; k < n; k++) {
    start[k] = size;
    const v = values[k];
    if (v !== null) size += dates[k].length + Buffer.byteLength(v) + 1;
  }
  start[n] = size;
  const buf = Buffer.allocUnsafe(size);
  for (let k = 0; k < n; k++) {
    const v = values[k];
    if (v === null) continue;
    let at = start[k] + buf.write(dates[k], start[k], 'latin1');
    body[k] = at;
    at += buf.write(v, at, 'utf8');
    buf[at] = 0x2c; // ','
  }
  return { buf, start, body };
}

/** The days of a range in order: runs of consecutive snapshots each on its own day, or a carried day. */
type Piece = { run: [number, number] } | { day: string; k: number };

/**
 * The §4.2 response written straight to UTF-8 JSON. A project's points change only at its snapshots, and
 * each snapshot's points are kept as the JSON that follows their date (derive/series.ts); on its first use
 * under a status every snapshot's points are laid out as sent (`Track`), so a request copies a slice per
 * series for a run of daily snapshots and writes a date only for a day carried from an earlier one: the
 * same values as `statsSeries`, property for property (tested), without building thousands of objects.
 */
export class SeriesJson {
  private readonly tracks: Partial<Record<StatsStatus, { groups: Track[]; counts: Track[] }>> = {};
  /** bytes held by the tracks laid out so far */
  bytes = 0;

  /**
   * @param dayAt the kept day of snapshot k under a status, asked for every snapshot when a range of that
   * status is first asked for: a cached project holds a few buffers, not thousands of objects for the
   * garbage collector to walk on every cycle.
   */
  constructor(
    private readonly days: number[],
    private readonly dayAt: (k: number, status: StatsStatus) => SeriesDay,
    /** the carry-forward limit C: a day more than C days after its snapshot has no point and no count */
    private readonly carry = DEFAULT_CARRY_DAYS,
  ) {}

  private laidOut(status: StatsStatus) {
    let t = this.tracks[status];
    if (!t) {
      const parsed = this.days.map((_, k) => this.dayAt(k, status));
      const dates = this.days.map((d) => `{"date":"${fromDay(d)}",`);
      t = {
        groups: GROUPS.map((_, gi) =>
          track(
            dates,
            parsed.map((p) => p.groups[gi]),
          ),
        ),
        counts: countLabels(status).map((_, gi) =>
          track(
            dates,
            parsed.map((p) => p.counts[gi]),
          ),
        ),
      };
      for (const x of [...t.groups, ...t.counts]) this.bytes += x.buf.length + 8 * x.body.length;
      this.tracks[status] = t;
    }
    return t;
  }

  /** The whole response for [from, to] under `status` with the given summary table (JSON), as UTF-8 JSON. */
  response(from: number, to: number, summaryJson: string, status: StatsStatus = 'ALL'): Buffer {
    const n = this.days.length;
    const start = n ? Math.max(from, this.days[0]) : 0;
    const end = n ? Math.min(to, this.days[n - 1]) : -1;
    const pieces: Piece[] = [];
    for (let day = start, k = 0; day <= end; day++) {
      while (k + 1 < n && this.days[k + 1] <= day) k++;
      if (!carries(this.days[k], day, this.carry)) continue;
      const last = pieces.at(-1);
      if (this.days[k] !== day) pieces.push({ day: `{"date":"${fromDay(day)}",`, k });
      else if (last && 'run' in last && last.run[1] === k - 1) last.run[1] = k;
      else pieces.push({ run: [k, k] });
    }
    const { groups, counts } = this.laidOut(status);
    const list = (w: BodyWriter, t: Track) => {
      const before = w.length;
      for (const p of pieces) {
        if ('run' in p) w.bytes(t.buf, t.start[p.run[0]], t.start[p.run[1] + 1]);
        else if (t.body[p.k] >= 0) {
          w.ascii(p.day);
          w.bytes(t.buf, t.body[p.k], t.start[p.k + 1]);
        }
      }
      if (w.length > before) w.unwrite();
    };
    return BodyWriter.build((w) => {
      w.ascii('{');
      GROUPS.forEach((g, gi) => {
        w.ascii(`${gi ? ',' : ''}"${GROUP_KEYS[g]}":{"points":[`);
        list(w, groups[gi]);
        w.ascii(']}');
      });
      w.ascii(',"flatsCountList":[');
      countLabels(status).forEach((label, gi) => {
        w.text(`${gi ? ',' : ''}{"label":${JSON.stringify(label)},"points":[`);
        list(w, counts[gi]);
        w.ascii(']}');
      });
      w.ascii('],"shortFlatSummaryList":');
      w.text(summaryJson);
      w.ascii('}');
    });
  }
}
