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

  bytes(b: Buffer): void {
    if (this.out) b.copy(this.out, this.at);
    this.at += b.length;
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
 * The §4.2 response written straight to UTF-8 JSON. A project's points change only at its snapshots, and
 * each snapshot's points are kept as the JSON that follows their date (derive/series.ts), so a request only
 * stitches dates to them: the same values as `statsSeries`, property for property (tested), without
 * building and stringifying thousands of objects per request.
 */
export class SeriesJson {
  /** per status, per snapshot index: the kept day, parsed on first use */
  private readonly parsed: Record<StatsStatus, SeriesDay[]> = { ALL: [], AVAILABLE: [] };
  /** bytes held by the days parsed so far */
  bytes = 0;

  /**
   * @param dayAt the kept day of snapshot k under a status, asked for when a range of that status first
   * covers it: a cached project holds bytes (its fragments), not thousands of objects for the garbage
   * collector to walk on every cycle.
   */
  constructor(
    private readonly days: number[],
    private readonly dayAt: (k: number, status: StatsStatus) => SeriesDay,
    /** the carry-forward limit C: a day more than C days after its snapshot has no point and no count */
    private readonly carry = DEFAULT_CARRY_DAYS,
  ) {}

  private at(k: number, status: StatsStatus) {
    const parsed = this.parsed[status];
    if (!parsed[k]) {
      parsed[k] = this.dayAt(k, status);
      this.bytes += parsed[k].bytes;
    }
  }

  /** The whole response for [from, to] under `status` with the given summary table (JSON), as UTF-8 JSON. */
  response(from: number, to: number, summaryJson: string, status: StatsStatus = 'ALL'): Buffer {
    const n = this.days.length;
    const start = n ? Math.max(from, this.days[0]) : 0;
    const end = n ? Math.min(to, this.days[n - 1]) : -1;
    // snapshot index in force on each day of the range
    const ks: number[] = [];
    const dates: string[] = [];
    for (let day = start, k = 0; day <= end; day++) {
      while (k + 1 < n && this.days[k + 1] <= day) k++;
      if (!carries(this.days[k], day, this.carry)) continue;
      ks.push(k);
      dates.push(`{"date":"${fromDay(day)}",`);
      this.at(k, status);
    }
    const parsed = this.parsed[status];
    return BodyWriter.build((w) => {
      w.ascii('{');
      GROUPS.forEach((g, gi) => {
        w.ascii(`${gi ? ',' : ''}"${GROUP_KEYS[g]}":{"points":[`);
        let first = true;
        for (let i = 0; i < ks.length; i++) {
          const fragment = parsed[ks[i]].groups[gi];
          if (fragment === null) continue;
          if (!first) w.ascii(',');
          first = false;
          w.ascii(dates[i]);
          w.bytes(fragment);
        }
        w.ascii(']}');
      });
      w.ascii(',"flatsCountList":[');
      countLabels(status).forEach((label, gi) => {
        w.text(`${gi ? ',' : ''}{"label":${JSON.stringify(label)},"points":[`);
        for (let i = 0; i < ks.length; i++) {
          if (i) w.ascii(',');
          w.ascii(dates[i]);
          w.ascii(parsed[ks[i]].counts[gi]);
        }
        w.ascii(']}');
      });
      w.ascii('],"shortFlatSummaryList":');
      w.text(summaryJson);
      w.ascii('}');
    });
  }
}
