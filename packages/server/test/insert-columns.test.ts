import { expect, it } from 'vitest';
import { copyText, sqlLiteral } from '../src/db/driver.js';
import { inChunks } from '../src/db/records.js';
import { describeEachDb } from './databases.js';

// Bulk appends (observations, segments, events) go through Db.insertColumns: COPY on PGlite, unnest on
// PostgreSQL. Both must store exactly what they are given, whatever the text holds.
const AWKWARD = ['Корпус 1', 'a\tb', 'line\nbreak', 'back\\slash', '\\N', '\\.', 'cr\rhere', '', ' spaced '];

describeEachDb('insertColumns stores rows exactly', (ctx) => {
  it('text with tabs, newlines, backslashes and \\N, nulls, dates, floats, 64-bit integers and booleans', async () => {
    await ctx.db.exec(
      'create table copy_probe (id int, name text, day date, area float8, price int8, present bool)',
    );
    const n = AWKWARD.length + 2;
    const ids = Array.from({ length: n }, (_, i) => i);
    const names = [...AWKWARD, null, 'last'];
    const days = ids.map((i) => (i % 3 === 0 ? null : `2026-0${1 + (i % 9)}-1${i % 10}`));
    const areas = ids.map((i) => (i === 1 ? null : 12.34 + i / 100));
    const prices = ids.map((i) => (i === 2 ? null : 9_007_199_254_740 + i));
    const present = ids.map((i) => (i === 3 ? null : i % 2 === 0));
    await ctx.db.transaction((tx) =>
      tx.insertColumns(
        'copy_probe',
        [
          ['id', 'int'],
          ['name', 'text'],
          ['day', 'date'],
          ['area', 'float8'],
          ['price', 'int8'],
          ['present', 'bool'],
        ],
        [ids, names, days, areas, prices, present],
      ),
    );
    const rows = await ctx.db.query<Record<string, unknown>>(
      'select id, name, day, area, price, present from copy_probe order by id',
    );
    expect(rows).toEqual(
      ids.map((i) => ({
        id: i,
        name: names[i],
        day: days[i],
        area: areas[i],
        price: prices[i],
        present: present[i],
      })),
    );
    // nothing to insert is nothing done
    await ctx.db.insertColumns('copy_probe', [['id', 'int']], [[]]);
    expect(await ctx.db.query('select count(*)::int as n from copy_probe')).toEqual([{ n }]);
  });

  it('textRows reads every value back as its text, parameters bound on both databases', async () => {
    // the table of the test above: awkward text, nulls of every type, 64-bit integers, floats, booleans
    const rows = await ctx.db.textRows(
      `select id, name, day, area, price, present from copy_probe
       where id >= $1 and (name is null or name <> $2) and ($3::date is null or true) order by id`,
      [0, "it's not there", '2026-01-01'],
    );
    const objects = await ctx.db.query<Record<string, unknown>>(
      'select id, name, day, area, price, present from copy_probe order by id',
    );
    const text = (v: unknown) => (v === null ? null : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v));
    expect(rows).toEqual(objects.map((o) => [o.id, o.name, o.day, o.area, o.price, o.present].map(text)));
    // a quote in a parameter is a value, not SQL; no rows is an empty list
    expect(
      await ctx.db.textRows('select name from copy_probe where name = $1', ["x'; drop table copy_probe; --"]),
    ).toEqual([]);
    expect(await ctx.db.textRows('select count(*) from copy_probe')).toEqual([[String(objects.length)]]);
  });

  it('a failed append inside a transaction leaves nothing', async () => {
    await ctx.db.exec('create table copy_strict (id int primary key)');
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.insertColumns('copy_strict', [['id', 'int']], [[1, 2]]);
        await tx.insertColumns('copy_strict', [['id', 'int']], [[3, 3]]);
      }),
    ).rejects.toThrow();
    expect(await ctx.db.query('select count(*)::int as n from copy_strict')).toEqual([{ n: 0 }]);
  });
});

it('COPY text escapes its specials and marks null', () => {
  expect(
    copyText([
      [1, null],
      ['a\tb\\c\nd\re', true],
    ]),
  ).toBe('1\ta\\tb\\\\c\\nd\\re\n\\N\tt\n');
  expect(copyText([[]])).toBe('');
});

it('parameters written into SQL for COPY: numbers, quoted text, arrays of numbers or of plain words only', () => {
  expect(sqlLiteral(42)).toBe('42');
  expect(sqlLiteral(null)).toBe('null');
  expect(sqlLiteral("o'clock")).toBe("'o''clock'");
  expect(sqlLiteral([1, 2.5])).toBe("'{1,2.5}'");
  // dates and hex digests: nothing in them to escape
  expect(sqlLiteral(['2026-11-25', 'd41d8cd98f00b204e9800998ecf8427e'])).toBe(
    `'{"2026-11-25","d41d8cd98f00b204e9800998ecf8427e"}'`,
  );
  // anything else in an array is refused, not escaped: a quote, a comma, a brace, a space, an empty word
  for (const word of ["o'clock", 'a,b', '}', 'a b', '', 'a"b'])
    expect(() => sqlLiteral(['ok', word]), word).toThrow(/finite number/);
  expect(() => sqlLiteral(Number.NaN)).toThrow(/finite number/);
  expect(() => sqlLiteral({})).toThrow(/unsupported/);
});

it('rows are written in chunks of 5,000, in order, none lost', async () => {
  const items = Array.from({ length: 12_001 }, (_, i) => i);
  const chunks: number[][] = [];
  await inChunks(items, async (chunk) => {
    chunks.push(chunk);
  });
  expect(chunks.map((c) => c.length)).toEqual([5_000, 5_000, 2_001]);
  expect(chunks.flat()).toEqual(items);
  await inChunks([], async () => {
    throw new Error('no chunk for nothing');
  });
});
