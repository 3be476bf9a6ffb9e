/** COPY's binary format (PostgreSQL's documented layout), as `Db.binaryRows` reads a select's rows. */

export type BinaryType = 'int' | 'text' | 'bytea';
export type BinaryValue = number | string | Uint8Array | null;
/** What takes a COPY's rows as they come (Db.binaryEach): awaited before the next ones are handed over. */
export type EachRows = (rows: BinaryValue[][]) => void | Promise<void>;

const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** the signature, the flags and the header extension's length */
const HEADER = 19;

/**
 * COPY's binary format read as its chunks come (a header, then a tuple per row, a -1 last): each row is
 * made as soon as its bytes are in, so a large result is never joined into one buffer first (the market's
 * 5,000 summaries of a filter are ~68 MB: joining them cost ~0.3 s of copying, all of it on the thread).
 * A row cut by a chunk's end waits until the bytes it still needs have come, then its pieces (and no more)
 * are joined once. A bytea is a view of the chunk it came in.
 */
export class CopyBinaryReader {
  private rows: BinaryValue[][] = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** the bytes the pending ones must reach before the next row (or the header) can be read */
  private need = HEADER;
  private header = false;
  private ended = false;

  constructor(private readonly types: readonly BinaryType[]) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.ended) throw new Error('COPY binary: data after the trailer');
    let from = 0;
    // a row cut by the last chunk's end: only the bytes it still needs are taken and joined to it (not the
    // whole chunk: a copy of every chunk, in fresh memory each time)
    while (this.pendingBytes > 0) {
      const take = Math.min(chunk.length - from, this.need - this.pendingBytes);
      if (take > 0) {
        this.pending.push(chunk.subarray(from, from + take));
        this.pendingBytes += take;
        from += take;
      }
      if (this.pendingBytes < this.need) return;
      const joined = Buffer.concat(this.pending, this.pendingBytes);
      const rest = joined.subarray(this.read(joined));
      this.pending = rest.length > 0 ? [rest] : [];
      this.pendingBytes = rest.length;
    }
    if (from === chunk.length) return;
    if (this.ended) throw new Error('COPY binary: data after the trailer');
    const part = from === 0 ? chunk : chunk.subarray(from);
    const rest = part.subarray(this.read(part));
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
  }

  /** The rows read since the last `take`, handed over (a reader that passes rows on as they come). */
  take(): BinaryValue[][] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  /** The rows not yet taken, once the trailer has come. */
  end(): BinaryValue[][] {
    if (!this.header) throw new Error('COPY binary: no signature');
    if (!this.ended || this.pendingBytes > 0) throw new Error('COPY binary: the data end before the trailer');
    return this.take();
  }

  /** Reads every whole row of `buf`; returns where the rest begins (and sets what it needs). */
  private read(buf: Buffer): number {
    let at = 0;
    if (!this.header) {
      if (buf.length < HEADER) return this.wait(HEADER);
      if (!buf.subarray(0, 11).equals(COPY_SIGNATURE)) throw new Error('COPY binary: no signature');
      const extension = buf.readInt32BE(15);
      if (buf.length < HEADER + extension) return this.wait(HEADER + extension);
      at = HEADER + extension;
      this.header = true;
    }
    const types = this.types;
    for (;;) {
      const size = this.rowSize(buf, at);
      if (size < 0) return at + this.wait(-size);
      const fields = buf.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        if (at + 2 < buf.length) throw new Error('COPY binary: data after the trailer');
        this.need = 0;
        return at + 2;
      }
      let p = at + 2;
      const row: BinaryValue[] = new Array(fields);
      for (let i = 0; i < fields; i++) {
        const length = buf.readInt32BE(p);
        p += 4;
        if (length === -1) {
          row[i] = null;
          continue;
        }
        const type = types[i];
        if (type === 'int') row[i] = buf.readInt32BE(p);
        else if (type === 'text') row[i] = buf.toString('utf8', p, p + length);
        else row[i] = buf.subarray(p, p + length);
        p += length;
      }
      this.rows.push(row);
      at += size;
    }
  }

  /** Nothing more is read until the pending bytes from here are `bytes` long; returns 0 (from here). */
  private wait(bytes: number): number {
    this.need = bytes;
    return 0;
  }

  /** The bytes of the tuple at `at` (2 for the trailer), or minus the bytes it needs to tell when cut. */
  private rowSize(buf: Buffer, at: number): number {
    if (buf.length - at < 2) return -2;
    const fields = buf.readInt16BE(at);
    if (fields === -1) return 2;
    if (fields !== this.types.length)
      throw new Error(`COPY binary: ${fields} fields, ${this.types.length} expected`);
    let p = at + 2;
    for (let i = 0; i < fields; i++) {
      if (buf.length - p < 4) return -(p - at + 4);
      const length = buf.readInt32BE(p);
      p += 4;
      if (length < -1) throw new Error(`COPY binary: a field of ${length} bytes`);
      if (length > 0) {
        if (buf.length - p < length) return -(p - at + length);
        p += length;
      }
    }
    return p - at;
  }
}

/** COPY's binary format read from one buffer holding all of it. */
export function parseCopyBinary(buf: Buffer, types: readonly BinaryType[]): BinaryValue[][] {
  const reader = new CopyBinaryReader(types);
  reader.push(buf);
  return reader.end();
}
