import type { Facing, FlatStatus } from '@cena-metra/contract';
import type { FlatOnDay } from './stats.js';

/**
 * Flats active on a day, kept column by column: numbers in Float64Arrays (exact for every JS number;
 * NaN for null), strings as indexes into one table of distinct values. The stats engine keeps these for
 * hundreds of projects; as objects (a flat, its record, its strings) 300,000 flats were over a million
 * objects that every major garbage collection walked, which showed as tens of milliseconds on unrelated
 * requests. `unpack` makes short-lived objects again for the analytics that read them.
 */
export class PackedFlats {
  private constructor(
    readonly length: number,
    private readonly numbers: Float64Array,
    private readonly stringIndexes: Uint32Array,
    private readonly strings: (string | null)[],
  ) {}

  static pack(flats: FlatOnDay[]): PackedFlats {
    const n = flats.length;
    const numbers = new Float64Array(n * NUMBER_COLUMNS);
    const stringIndexes = new Uint32Array(n * STRING_COLUMNS);
    const strings: (string | null)[] = [null];
    const index = new Map<string, number>();
    const indexOf = (s: string | null) => {
      if (s === null) return 0;
      let i = index.get(s);
      if (i === undefined) {
        i = strings.length;
        strings.push(s);
        index.set(s, i);
      }
      return i;
    };
    const num = (x: number | null) => (x === null ? Number.NaN : x);
    flats.forEach((f, i) => {
      const r = f.rec;
      numbers.set(
        [
          f.flatId,
          f.refDay,
          f.ref7Days,
          f.ref1Month,
          f.ref1Year,
          num(r.floor),
          r.rooms,
          r.area,
          r.price,
          num(r.basePrice),
        ],
        i * NUMBER_COLUMNS,
      );
      stringIndexes.set(
        [r.building, r.section, r.number, r.facing, r.settlementDate, r.status, r.offer].map(indexOf),
        i * STRING_COLUMNS,
      );
    });
    return new PackedFlats(n, numbers, stringIndexes, strings);
  }

  /** Bytes held, roughly (the columns and the distinct strings). */
  get bytes(): number {
    return (
      this.numbers.byteLength +
      this.stringIndexes.byteLength +
      this.strings.reduce((sum, s) => sum + (s?.length ?? 0) + 16, 0)
    );
  }

  unpack(): FlatOnDay[] {
    const out: FlatOnDay[] = new Array(this.length);
    const { numbers: x, stringIndexes: k, strings } = this;
    const orNull = (v: number) => (Number.isNaN(v) ? null : v);
    for (let i = 0; i < this.length; i++) {
      const n = i * NUMBER_COLUMNS;
      const s = i * STRING_COLUMNS;
      out[i] = {
        flatId: x[n],
        rec: {
          building: strings[k[s]] as string,
          section: strings[k[s + 1]],
          floor: orNull(x[n + 5]),
          number: strings[k[s + 2]],
          rooms: x[n + 6],
          area: x[n + 7],
          facing: strings[k[s + 3]] as Facing,
          settlementDate: strings[k[s + 4]],
          price: x[n + 8],
          basePrice: orNull(x[n + 9]),
          status: strings[k[s + 5]] as FlatStatus | null,
          offer: strings[k[s + 6]],
        },
        refDay: x[n + 1],
        ref7Days: x[n + 2],
        ref1Month: x[n + 3],
        ref1Year: x[n + 4],
      };
    }
    return out;
  }
}

const NUMBER_COLUMNS = 10;
const STRING_COLUMNS = 7;
