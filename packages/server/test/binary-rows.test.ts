import { describe, expect, it } from 'vitest';
import { CopyBinaryReader } from '../src/db/copy-binary.js';
import { type BinaryType, type EachRows, openDb, parseCopyBinary } from '../src/db/driver.js';
import { paceSummariesEach } from '../src/db/queries/kept-pace.js';
import { MarketReader } from '../src/read/market-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { describeEachDb } from './databases.js';
import { clear, importedMarket } from './market-imported.js';

// The market's rank months are read as bytes (Db.binaryRows): COPY's binary format on PostgreSQL, the
// query's own values on PGlite. Both must give every byte, integer, text and null exactly.
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

describeEachDb('binaryRows reads bytea, integers and text exactly', (ctx) => {
  it('writes bytes parameters exactly, whatever their place among ten or more, a view at an offset too', async () => {
    // on PGlite a bytes parameter goes as base64 text decoded by the server (driver.ts bytesAsBase64)
    await ctx.db.exec('create table bytes_write (n int, a bytea, b bytea, c text)');
    const big = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256);
    const view = big.subarray(3, 1003);
    const params = [
      1,
      Buffer.from(ALL_BYTES),
      view,
      'x',
      2,
      new Uint8Array(0),
      big,
      '$1',
      3,
      'y',
      Buffer.from('Й'),
    ];
    await ctx.db.query(
      `insert into bytes_write values ($1, $2, $3, $4), ($5, $6, $7::bytea, $8), ($9, $11, null, $10)`,
      params,
    );
    const rows = await ctx.db.binaryRows(
      'select n, a, b, c from bytes_write order by n',
      [],
      ['int', 'bytea', 'bytea', 'text'],
    );
    const bytes = (v: unknown) => (v === null ? null : [...(v as Uint8Array)]);
    expect(rows.map((r) => [r[0], bytes(r[1]), bytes(r[2]), r[3]])).toEqual([
      [1, [...ALL_BYTES], [...view], 'x'],
      [2, [], [...big], '$1'],
      [3, [...Buffer.from('Й')], null, 'y'],
    ]);
    // compared as bytes in a condition too
    expect(await ctx.db.query('select n from bytes_write where a = $1', [Buffer.from(ALL_BYTES)])).toEqual([
      { n: 1 },
    ]);
  });

  it('every byte value, an empty body, nulls, Cyrillic text, negative integers; parameters inlined', async () => {
    await ctx.db.exec('create table bytes_probe (id int, name text, body bytea)');
    await ctx.db.query(
      `insert into bytes_probe values ($1, $2, $3), ($4, $5, $6), ($7, $8, $9), (-5, null, null)`,
      [
        1,
        'Корпус «А»',
        Buffer.from(ALL_BYTES),
        2,
        '',
        Buffer.alloc(0),
        3,
        'a\tb\\n',
        Buffer.from([0, 255, 10, 13]),
      ],
    );
    const rows = await ctx.db.binaryRows(
      `select id, name, body from bytes_probe where id = any($1::int[]) or name = $2 or id < $3 order by id`,
      [[1, 2, 3], 'нет такого', 0],
      ['int', 'text', 'bytea'],
    );
    expect(rows.map((r) => [r[0], r[1], r[2] === null ? null : [...(r[2] as Uint8Array)]])).toEqual([
      [-5, null, null],
      [1, 'Корпус «А»', [...ALL_BYTES]],
      [2, '', []],
      [3, 'a\tb\\n', [0, 255, 10, 13]],
    ]);
    // arrays of plain words (dates, digests) as parameters; nothing found is no rows
    expect(
      await ctx.db.binaryRows(
        `select id from bytes_probe where name = any($1::text[]) and $2::date is not null`,
        [['abc', '2026-11-25'], '2026-11-25'],
        ['int'],
      ),
    ).toEqual([]);
  });
});

describeEachDb('binaryEach hands the rows over as they come', (ctx) => {
  it('the same rows as binaryRows, in order, in pieces while PostgreSQL sends them; each piece awaited', async () => {
    await importedMarket(ctx.db, 1207, 2);
    const projects = await ctx.db.query<{ id: number }>('select id from project order by id');
    // large parts (~4 MB in all): PostgreSQL sends them in many pieces
    for (const [i, { id }] of projects.entries())
      for (let k = 0; k < 5; k++)
        await ctx.db.query(
          `insert into pace_summary (project_id, status, rooms, part, body) values ($1, 'ALL', 'all', $2::date, $3)`,
          [id, `19${70 + k}-01-01`, Buffer.alloc(300_000 + 1000 * k, (i * 3 + k) % 251)],
        );
    const sql = `select project_id, part - date '1970-01-01', body from pace_summary
                 where status = $1 and rooms = $2 order by project_id, part`;
    const types = ['int', 'int', 'bytea'] as const;
    // rows as text to compare (a deep comparison of megabytes of typed arrays takes seconds)
    const seen = (rows: unknown[][]) =>
      rows.map(([id, part, body]) => `${id}:${part}:${Buffer.from(body as Uint8Array).toString('base64')}`);
    const whole = await ctx.db.binaryRows(sql, ['ALL', 'all'], types);
    const pieces: number[] = [];
    const each: unknown[][] = [];
    let busy = false;
    await ctx.db.binaryEach(sql, ['ALL', 'all'], types, async (rows) => {
      // the next piece waits for this one's work
      expect(busy).toBe(false);
      busy = true;
      await new Promise((r) => setTimeout(r, 1));
      pieces.push(rows.length);
      each.push(...rows);
      busy = false;
    });
    expect(seen(each)).toEqual(seen(whole));
    expect(whole.length).toBeGreaterThan(10);
    if (ctx.kind === 'postgresql') expect(pieces.length).toBeGreaterThan(3);
    // a project's parts handed over once all have come, whatever piece each came in, in project order
    const grouped: [number, string[]][] = [];
    await paceSummariesEach(
      ctx.db,
      'ALL',
      'all',
      projects.map((p) => p.id),
      (id, parts) => {
        grouped.push([id, parts.map((b) => Buffer.from(b).toString('base64'))]);
      },
    );
    const expected = new Map<number, string[]>();
    for (const [id, , body] of whole as [number, number, Uint8Array][])
      expected.set(id, [...(expected.get(id) ?? []), Buffer.from(body).toString('base64')]);
    expect(grouped).toEqual([...expected]);
    // ids asked for twice, out of order, or with no summaries: each project once, in project order
    const some: [number, string[]][] = [];
    const [a, b] = [projects[1].id, projects[0].id];
    await paceSummariesEach(ctx.db, 'ALL', 'all', [a, b, a, 999_999, b], (id, parts) => {
      some.push([id, parts.map((x) => Buffer.from(x).toString('base64'))]);
    });
    expect(some).toEqual([...expected].filter(([id]) => id === a || id === b));
    // a piece's work that fails fails the read, mid-answer; the database answers the next query
    await expect(
      ctx.db.binaryEach(sql, ['ALL', 'all'], types, () => {
        throw new Error('форма не та');
      }),
    ).rejects.toThrow('форма не та');
    expect(seen(await ctx.db.binaryRows(sql, ['ALL', 'all'], types))).toEqual(seen(whole));
    expect(await ctx.db.query('select 1 as n')).toEqual([{ n: 1 }]);
  });
});

describeEachDb('binaryRows on a connection with a read timeout (a replica)', (ctx) => {
  it('leaves no timer behind: nothing fails after the read, the connection answers the next query', async () => {
    if (ctx.kind !== 'postgresql') return;
    const replica = await openDb({ databaseUrl: ctx.url!, timeoutMs: 300 });
    const errors: unknown[] = [];
    const caught = (e: unknown) => errors.push(e);
    process.on('uncaughtException', caught);
    try {
      for (let i = 0; i < 3; i++)
        expect(await replica.binaryRows('select $1::int', [i], ['int'])).toEqual([[i]]);
      // past the read timeout: a timer of the COPY left running would fail the finished stream now
      await new Promise((done) => setTimeout(done, 600));
      expect(await replica.query('select 1 as n')).toEqual([{ n: 1 }]);
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', caught);
      await replica.close();
    }
  });
});

describe('COPY binary format', () => {
  it('is refused without its signature or with another count of fields', () => {
    expect(() => parseCopyBinary(Buffer.from('not a copy at all, really'), ['int'])).toThrow(/signature/);
    const header = Buffer.concat([
      Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
      Buffer.alloc(8),
      Buffer.from([0, 2, 0, 0, 0, 4, 0, 0, 0, 7, 255, 255, 255, 255, 255, 255]),
    ]);
    expect(parseCopyBinary(header, ['int', 'text'])).toEqual([[7, null]]);
    expect(() => parseCopyBinary(header, ['int'])).toThrow(/2 fields, 1 expected/);
  });

  /** COPY's binary form of rows of (int, text, bytea), as PostgreSQL writes it (with a header extension). */
  function copyOf(rows: [number, string | null, Uint8Array | null][]): Buffer {
    const field = (b: Buffer | null) => {
      const length = Buffer.alloc(4);
      length.writeInt32BE(b === null ? -1 : b.length);
      return b === null ? [length] : [length, b];
    };
    const int = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeInt32BE(n);
      return b;
    };
    return Buffer.concat([
      Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
      Buffer.from([0, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]),
      ...rows.flatMap(([n, text, bytes]) => [
        Buffer.from([0, 3]),
        ...field(int(n)),
        ...field(text === null ? null : Buffer.from(text)),
        ...field(bytes === null ? null : Buffer.from(bytes)),
      ]),
      Buffer.from([255, 255]),
    ]);
  }

  it('reads the same rows however the bytes are cut into chunks, a row longer than many chunks too', () => {
    const long = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31) % 256);
    const rows: [number, string | null, Uint8Array | null][] = [
      [1, 'Корпус «А»', Uint8Array.from([0, 255, 10])],
      [-7, null, null],
      [2, '', new Uint8Array(0)],
      [3, 'x'.repeat(300), long],
      [4, 'й', null],
    ];
    const whole = copyOf(rows);
    const hex = (b: unknown) => (b === null ? null : Buffer.from(b as Uint8Array).toString('hex'));
    const expected = rows.map(([n, t, b]) => [n, t, hex(b)]);
    // the rows taken as they come (binaryEach) or all at the end
    let taking = false;
    const read = (chunks: Buffer[]) => {
      const reader = new CopyBinaryReader(['int', 'text', 'bytea']);
      const rows = [];
      for (const c of chunks) {
        reader.push(c);
        if (taking) rows.push(...reader.take());
      }
      rows.push(...reader.end());
      taking = !taking;
      return rows.map(([n, t, b]) => [n, t, hex(b)]);
    };
    expect(read([whole])).toEqual(expected);
    // cut at every place into two, into chunks of every size from 1 to 40 bytes, and at random places
    for (let cut = 0; cut <= whole.length; cut++)
      expect(read([whole.subarray(0, cut), whole.subarray(cut)])).toEqual(expected);
    for (let size = 1; size <= 40; size++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < whole.length; at += size) chunks.push(whole.subarray(at, at + size));
      expect(read(chunks)).toEqual(expected);
    }
    let seed = 7;
    for (let run = 0; run < 50; run++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < whole.length; ) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const size = 1 + (seed % 700);
        chunks.push(whole.subarray(at, at + size));
        at += size;
      }
      expect(read(chunks)).toEqual(expected);
    }
  });

  it('fails when the data end before the trailer or go on after it', () => {
    const whole = copyOf([[1, 'a', null]]);
    const reader = new CopyBinaryReader(['int', 'text', 'bytea']);
    reader.push(whole.subarray(0, whole.length - 2));
    expect(() => reader.end()).toThrow(/before the trailer/);
    const after = new CopyBinaryReader(['int', 'text', 'bytea']);
    after.push(whole);
    expect(() => after.push(Buffer.from([0]))).toThrow(/after the trailer/);
    // a field's length below −1 (null) is no length: refused, not read as a view backwards
    const bad = Buffer.from(whole);
    bad.writeInt32BE(-5, 19 + 3 + 2);
    expect(() => parseCopyBinary(bad, ['int', 'text', 'bytea'])).toThrow(/a field of -5 bytes/);
    expect(() =>
      parseCopyBinary(Buffer.concat([whole, Buffer.from([0, 1])]), ['int', 'text', 'bytea']),
    ).toThrow(/after the trailer/);
  });
});

describeEachDb('the market’s summaries when a read fails midway', (ctx) => {
  it('a read that fails after handing over some rows (a replica lost) is finished by a second: each project whole, read once', async () => {
    await clear(ctx.db);
    await importedMarket(ctx.db, 2026, 4);
    const projects = await ctx.db.query<{ id: number; data_version: number }>(
      'select id, data_version from project order by id',
    );
    const whole = await new MarketReader(new ReadCache()).summaries(ctx.db, projects, 'ALL', 'all');
    expect(whole.size).toBe(4);
    // the first read hands over the rows of its first two projects, then fails (the second's may be cut)
    const asked: number[][] = [];
    const failing = new Proxy(ctx.db, {
      get(t, prop, receiver) {
        if (prop !== 'binaryEach') {
          const value = Reflect.get(t, prop, receiver);
          return typeof value === 'function' ? value.bind(t) : value;
        }
        return async (sql: string, params: unknown[], types: readonly BinaryType[], each: EachRows) => {
          asked.push([...(params[2] as number[])]);
          if (asked.length > 1) return t.binaryEach(sql, params, types, each);
          await t.binaryEach(sql, params, types, async (rows) => {
            const ids = [...new Set(rows.map((r) => r[0] as number))].slice(0, 2);
            await each(rows.filter((r) => ids.includes(r[0] as number)));
            throw new Error('реплика пропала');
          });
        };
      },
    });
    const read = await new MarketReader(new ReadCache()).summaries(failing, projects, 'ALL', 'all');
    expect(read).toEqual(whole);
    // the first project came whole and is not asked again; the rest are
    expect(asked).toEqual([projects.map((p) => p.id), projects.slice(1).map((p) => p.id)]);
    // a body that cannot be read fails the read, again on the second: no project is left out unsaid
    await ctx.db.query(
      `update pace_summary set body = '\\x00' where project_id = $1 and status = 'ALL' and rooms = 'all'`,
      [projects[2].id],
    );
    await expect(new MarketReader(new ReadCache()).summaries(ctx.db, projects, 'ALL', 'all')).rejects.toThrow(
      /unknown form/,
    );
  });
});
