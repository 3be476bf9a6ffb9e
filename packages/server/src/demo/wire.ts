import type { FlatRecord } from '../analytics/types.js';
import type { Snapshot } from '../ingest/snapshot.js';

/**
 * Validated demo lists as one thread hands them to another (demo/worker.ts → demo/run.ts): each flat as 13
 * numbers of one transferable array — texts as indices into a table sent once per new text — instead of
 * the structured clone of millions of objects, which cost the receiving thread as much as validating them.
 */

/** A flat's columns in the array, in FlatRecord order after its id. */
const COLUMNS = 13;

/** A list's fields besides its flats, and how many flats it has. */
type ListHead = Omit<Snapshot, 'flats'> & { flats: number; contentHash: string };

export interface WireChunk {
  /** the demo project's index */
  project: number;
  /** texts new since the previous chunk, appended to the table in this order */
  texts: string[];
  lists: ListHead[];
  /** the lists' flats one after another */
  columns: Float64Array;
  /** calendar days of the project read through this chunk (the progress) */
  days: number;
  /** the project's last chunk */
  last: boolean;
}

export class WireEncoder {
  private readonly table = new Map<string, number>();
  private texts: string[] = [];
  private lists: ListHead[] = [];
  /**
   * The flats' numbers, written in place and grown by doubling: pushing 13 values a flat onto a JS array (and
   * `Float64Array.from` of it) took ~2.3 µs a flat — most of the worker's thread over the demo's 15 million.
   */
  private values = new Float64Array(1 << 16);
  private used = 0;

  private text(value: string | null): number {
    if (value === null) return -1;
    let at = this.table.get(value);
    if (at === undefined) {
      at = this.table.size;
      this.table.set(value, at);
      this.texts.push(value);
    }
    return at;
  }

  /** Adds a validated list and its content hash. */
  add(list: Snapshot & { contentHash: string }): void {
    const { flats, ...head } = list;
    this.lists.push({ ...head, flats: flats.length });
    const needed = this.used + flats.length * COLUMNS;
    if (needed > this.values.length) {
      const grown = new Float64Array(Math.max(needed, this.values.length * 2));
      grown.set(this.values.subarray(0, this.used));
      this.values = grown;
    }
    const v = this.values;
    let i = this.used;
    for (const { externalId, rec } of flats) {
      v[i++] = this.text(externalId);
      v[i++] = this.text(rec.building);
      v[i++] = this.text(rec.section);
      v[i++] = rec.floor ?? Number.NaN;
      v[i++] = this.text(rec.number);
      v[i++] = rec.rooms;
      v[i++] = rec.area;
      v[i++] = this.text(rec.facing);
      v[i++] = this.text(rec.settlementDate);
      v[i++] = rec.price;
      v[i++] = rec.basePrice ?? Number.NaN;
      v[i++] = this.text(rec.status);
      v[i++] = this.text(rec.offer);
    }
    this.used = i;
  }

  get size(): number {
    return this.lists.length;
  }

  /** The lists added since the last chunk, and the texts they brought. */
  take(project: number, days: number, last: boolean): WireChunk {
    // a copy of the chunk's numbers (its buffer is transferred); the grown one is written again
    const columns = this.values.slice(0, this.used);
    const chunk = { project, texts: this.texts, lists: this.lists, columns, days, last };
    this.texts = [];
    this.lists = [];
    this.used = 0;
    return chunk;
  }
}

export class WireDecoder {
  private readonly table: string[] = [];

  /** The chunk's lists as validateSnapshot returned them, each with its content hash. */
  decode(chunk: WireChunk): Snapshot[] {
    for (const t of chunk.texts) this.table.push(t);
    const table = this.table;
    const text = (at: number) => (at < 0 ? null : table[at]);
    const c = chunk.columns;
    let at = 0;
    return chunk.lists.map(({ flats: count, ...head }) => {
      const flats: Snapshot['flats'] = new Array(count);
      for (let i = 0; i < count; i++, at += COLUMNS) {
        const rec: FlatRecord = {
          building: table[c[at + 1]],
          section: text(c[at + 2]),
          floor: Number.isNaN(c[at + 3]) ? null : c[at + 3],
          number: text(c[at + 4]),
          rooms: c[at + 5],
          area: c[at + 6],
          facing: table[c[at + 7]] as FlatRecord['facing'],
          settlementDate: text(c[at + 8]),
          price: c[at + 9],
          basePrice: Number.isNaN(c[at + 10]) ? null : c[at + 10],
          status: text(c[at + 11]) as FlatRecord['status'],
          offer: text(c[at + 12]),
        };
        flats[i] = { externalId: table[c[at]], rec };
      }
      return { ...head, flats } as Snapshot;
    });
  }
}
