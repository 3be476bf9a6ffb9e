/** COPY's binary format (PostgreSQL's documented layout), as `Db.binaryRows` reads a select's rows. */

export type BinaryType = 'int' | 'text' | 'bytea';
export type BinaryValue = number | string | Uint8Array | null;

const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** COPY's binary format read (PostgreSQL's documented layout): a header, then a tuple per row, a -1 last. */
export function parseCopyBinary(buf: Buffer, types: readonly BinaryType[]): BinaryValue[][] {
  if (buf.length < 19 || !buf.subarray(0, 11).equals(COPY_SIGNATURE))
    throw new Error('COPY binary: no signature');
  let at = 15 + 4 + buf.readInt32BE(15);
  const rows: BinaryValue[][] = [];
  for (;;) {
    const fields = buf.readInt16BE(at);
    at += 2;
    if (fields === -1) return rows;
    if (fields !== types.length) throw new Error(`COPY binary: ${fields} fields, ${types.length} expected`);
    const row: BinaryValue[] = new Array(fields);
    for (let i = 0; i < fields; i++) {
      const length = buf.readInt32BE(at);
      at += 4;
      if (length === -1) {
        row[i] = null;
        continue;
      }
      const type = types[i];
      if (type === 'int') row[i] = buf.readInt32BE(at);
      else if (type === 'text') row[i] = buf.toString('utf8', at, at + length);
      else row[i] = buf.subarray(at, at + length);
      at += length;
    }
    rows.push(row);
  }
}
