import type { RoomGroup, StatsStatus } from '@cena-metra/contract';
import { carries } from '../analytics/carry.js';
import { countLabels, GROUPS } from '../analytics/stats.js';
import { DEFAULT_CARRY_DAYS } from '../analytics/types.js';
import { DATE_BYTES, type MonthLayout, pointDate } from '../db/kept-series.js';

const GROUP_KEYS: Record<RoomGroup, string> = {
  all: 'allRoomsData',
  studio: 'studioData',
  one: 'oneRoomData',
  two: 'twoRoomsData',
  threeAndMore: 'threeAndMoreRoomData',
};

/**
 * A body as the pieces it is sent in: the long runs of a series are views of the kept tracks (sent as they
 * lie, no copy), what lies between them is gathered into small buffers. `length` is the whole body's.
 */
export interface ChunkedBody {
  chunks: Buffer[];
  length: number;
  /** bytes of the chunks that are the body's own (gathered), not views of the tracks */
  gathered: number;
}

/** The body as one buffer (to compress it, or for a caller that wants it whole). */
export function joined(body: ChunkedBody): Buffer {
  return body.chunks.length === 1 ? body.chunks[0] : Buffer.concat(body.chunks, body.length);
}

/** A slice at least this long is sent as a view of its track; a shorter one is copied with its neighbours. */
const VIEW_BYTES = 16 * 1024;
const GATHER_BYTES = 64 * 1024;

/** Writes a body as chunks: long slices by reference, everything else gathered into buffers of 64 KB. */
export class BodyWriter {
  private readonly chunks: Buffer[] = [];
  private gather = Buffer.allocUnsafe(GATHER_BYTES);
  private at = 0;
  private total = 0;

  private room(bytes: number): void {
    if (this.at + bytes <= this.gather.length) return;
    this.flush();
    if (bytes > this.gather.length) this.gather = Buffer.allocUnsafe(bytes);
  }

  private gathered = 0;

  private flush(): void {
    if (this.at === 0) return;
    // a buffer mostly empty is copied out at its size rather than held at 64 KB
    const part = this.gather.subarray(0, this.at);
    const chunk = this.at < this.gather.length / 4 ? Buffer.from(part) : part;
    this.gathered += chunk === part ? this.gather.length : chunk.length;
    this.chunks.push(chunk);
    this.gather = Buffer.allocUnsafe(GATHER_BYTES);
    this.at = 0;
  }

  text(s: string): void {
    this.room(Buffer.byteLength(s));
    const n = this.gather.write(s, this.at, 'utf8');
    this.at += n;
    this.total += n;
  }

  /** ASCII-only text (dates, digits, punctuation): one byte per character. */
  ascii(s: string): void {
    this.room(s.length);
    this.gather.write(s, this.at, 'latin1');
    this.at += s.length;
    this.total += s.length;
  }

  bytes(b: Buffer, start: number, end: number): void {
    const n = end - start;
    if (n >= VIEW_BYTES) {
      this.flush();
      this.chunks.push(b.subarray(start, end));
    } else {
      this.room(n);
      b.copy(this.gather, this.at, start, end);
      this.at += n;
    }
    this.total += n;
  }

  /** Takes back the last byte written (a list's trailing comma). */
  unwrite(): void {
    if (this.at > 0) this.at--;
    else {
      const last = this.chunks.pop()!;
      if (last.length > 1) this.chunks.push(last.subarray(0, last.length - 1));
    }
    this.total--;
  }

  get length(): number {
    return this.total;
  }

  static build(emit: (w: BodyWriter) => void): ChunkedBody {
    const writer = new BodyWriter();
    emit(writer);
    writer.flush();
    return { chunks: writer.chunks, length: writer.total, gathered: writer.gathered };
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

/**
 * A series laid out for the whole project from its kept months: each month's points of the series are
 * already as sent (db/kept-series.ts), so they are joined, and each snapshot's place found from the lengths.
 */
function track(months: MonthLayout[], series: number, n: number): Track {
  let size = 0;
  for (const m of months) size += m.at[series + 1] - m.at[series];
  const buf = Buffer.allocUnsafe(size);
  const start = new Int32Array(n + 1);
  const body = new Int32Array(n).fill(-1);
  let at = 0;
  let k = 0;
  for (const m of months) {
    m.bytes.copy(buf, at, m.at[series], m.at[series + 1]);
    for (let i = series * m.days, e = i + m.days; i < e; i++, k++) {
      start[k] = at;
      const len = m.lengths[i];
      if (len) body[k] = at + DATE_BYTES;
      at += len;
    }
  }
  start[n] = at;
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
   * @param monthsOf the kept months of the series under a status (db/kept-series.ts), in order, asked for
   * when a range of that status is first asked for: their bytes are joined per series, so a cached project
   * holds a few buffers, not thousands of strings or objects for the garbage collector to walk on every cycle.
   */
  constructor(
    private readonly days: number[],
    private readonly monthsOf: (status: StatsStatus) => MonthLayout[],
    /** the carry-forward limit C: a day more than C days after its snapshot has no point and no count */
    private readonly carry = DEFAULT_CARRY_DAYS,
  ) {}

  /** The series of a status laid out as tracks (on its first use): the groups' and the counts'. */
  private tracksOf(status: StatsStatus): { groups: Track[]; counts: Track[] } {
    let t = this.tracks[status];
    if (!t) {
      const months = this.monthsOf(status);
      const n = this.days.length;
      const counts = countLabels(status).length;
      if (
        months.reduce((sum, m) => sum + m.days, 0) !== n ||
        months.some((m) => m.groups !== GROUPS.length || m.counts !== counts)
      )
        throw new Error('series_month: the months do not hold the series of the snapshots');
      t = {
        groups: GROUPS.map((_, g) => track(months, g, n)),
        counts: Array.from({ length: counts }, (_, c) => track(months, GROUPS.length + c, n)),
      };
      for (const x of [...t.groups, ...t.counts]) this.bytes += x.buf.length + 8 * x.body.length;
      this.tracks[status] = t;
    }
    return t;
  }

  /** Each day of [from, to] that has data, with the snapshot it takes its points from (carried ≤ C days). */
  eachDay(from: number, to: number, visit: (day: number, k: number) => void): void {
    const n = this.days.length;
    const start = n ? Math.max(from, this.days[0]) : 0;
    const end = n ? Math.min(to, this.days[n - 1]) : -1;
    for (let day = start, k = 0; day <= end; day++) {
      while (k + 1 < n && this.days[k + 1] <= day) k++;
      if (carries(this.days[k], day, this.carry)) visit(day, k);
    }
  }

  /**
   * The whole response for [from, to] under `status` with the given summary table (JSON), as UTF-8 JSON in
   * the chunks it is sent in: a run of daily snapshots is one view of its track, not copied.
   */
  response(from: number, to: number, summaryJson: string, status: StatsStatus = 'ALL'): ChunkedBody {
    const pieces: Piece[] = [];
    this.eachDay(from, to, (day, k) => {
      const last = pieces.at(-1);
      if (this.days[k] !== day) pieces.push({ day: pointDate(day), k });
      else if (last && 'run' in last && last.run[1] === k - 1) last.run[1] = k;
      else pieces.push({ run: [k, k] });
    });
    const { groups, counts } = this.tracksOf(status);
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
