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
  private values: number[] = [];

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
    const v = this.values;
    for (const { externalId, rec } of flats)
      v.push(
        this.text(externalId),
        this.text(rec.building),
        this.text(rec.section),
        rec.floor ?? Number.NaN,
        this.text(rec.number),
        rec.rooms,
        rec.area,
        this.text(rec.facing),
        this.text(rec.settlementDate),
        rec.price,
        rec.basePrice ?? Number.NaN,
        this.text(rec.status),
        this.text(rec.offer),
      );
  }

  get size(): number {
    return this.lists.length;
  }

  /** The lists added since the last chunk, and the texts they brought. */
  take(project: number, days: number, last: boolean): WireChunk {
    const columns = Float64Array.from(this.values);
    const chunk = { project, texts: this.texts, lists: this.lists, columns, days, last };
    this.texts = [];
    this.lists = [];
    this.values = [];
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
