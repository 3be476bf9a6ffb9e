import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/driver.js';
import { importBatch } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import { CSV_COLUMNS } from '../src/ingest/readers/csv.js';
import { type Format, type ReadItem, readFileSnapshots } from '../src/ingest/readers/index.js';
import { SnapshotValidationError } from '../src/ingest/snapshot.js';
import { freshDb } from './databases.js';
import { fingerprint } from './fingerprint.js';

// Every reader on real fixtures (the PIK API responses and site scrape, and our own formats made from
// them), mutated at random: it never throws, every message names the file and the place, and a rejected
// file leaves the database as it was.

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const PIK_FILE = '2020-01-10T15-33.json';
const pik = JSON.parse(readFileSync(join(FIXTURES, 'pik-api', PIK_FILE), 'utf8')) as {
  flats: Record<string, unknown>[];
};

/** The real PIK lots in our own snapshot format (DESIGN §3.2). */
function ownSnapshot(date: string) {
  return {
    date,
    developer: 'ПИК',
    project: 'Саларьево парк',
    flats: pik.flats.slice(0, 6).map((f) => ({
      id: String(f.id),
      building: (f.bulk as { name: string }).name,
      section: String((f.section as { number: number } | null)?.number ?? ''),
      floor: f.floor,
      number: String(f.number),
      rooms: f.rooms === 'studio' ? 0 : f.rooms,
      area: f.area,
      finish: 'с отделкой',
      settlementDate: '4 кв. 2021',
      price: f.price,
      status: 'AVAILABLE',
    })),
  };
}

function ownCsv(): string {
  const lines = [CSV_COLUMNS.join(';')];
  for (const date of ['2026-10-01', '2026-10-02']) {
    const s = ownSnapshot(date);
    for (const f of s.flats) {
      const row: Record<string, unknown> = { date, developer: s.developer, project: s.project, ...f };
      lines.push(CSV_COLUMNS.map((c) => String(row[c] ?? '')).join(';'));
    }
  }
  return `${lines.join('\n')}\n`;
}

interface Base {
  format: Exclude<Format, 'auto'>;
  file: string;
  text: string;
  /** parsed JSON to mutate by path, for the JSON formats */
  json?: unknown;
}

const BASES: Base[] = [
  {
    format: 'json',
    file: 'snapshots.json',
    text: '',
    json: [ownSnapshot('2026-10-01'), ownSnapshot('2026-10-02')],
  },
  {
    format: 'ndjson',
    file: 'snapshots.ndjson',
    text: `${JSON.stringify(ownSnapshot('2026-10-03'))}\n${JSON.stringify(ownSnapshot('2026-10-04'))}\n`,
  },
  { format: 'csv', file: 'snapshots.csv', text: ownCsv() },
  { format: 'pik', file: PIK_FILE, text: '', json: { flats: pik.flats.slice(0, 8) } },
  {
    format: 'pik-csv',
    file: 'flats.csv',
    text: readFileSync(join(FIXTURES, 'pik-scrape', 'flats.csv'), 'utf8'),
  },
  { format: 'yrl', file: 'feed.xml', text: readFileSync(join(FIXTURES, 'yrl', 'feed.xml'), 'utf8') },
];
for (const b of BASES) if (b.json) b.text = JSON.stringify(b.json, null, 1);

/** Values a careless export or an attacker puts where a field should be. */
const HOSTILE: unknown[] = [
  null,
  '',
  ' ',
  '\u0000',
  'a\u0007b',
  'x'.repeat(300),
  -1,
  0,
  1e-9,
  0.004,
  1e308,
  -0,
  true,
  [],
  {},
  [[[[[1]]]]],
  '=HYPERLINK("x")',
  '１２',
  '1e5',
  '0x10',
  ' 40 ',
  '9999-12-31',
  '0000-01-01',
  '2026-02-30',
  'studio',
  'Трехкомнатная',
];

/** Every path to a value inside a JSON document (objects and arrays), capped. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  if (out.length > 2_000) return out;
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  out.push(prefix);
  return out;
}

function setAt(doc: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown {
  const copy = structuredClone(doc);
  if (path.length === 0) return value;
  let node = copy as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove && !Array.isArray(node)) delete node[last];
  else node[last] = value;
  return copy;
}

const textEdit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  cut: fc.integer({ min: 0, max: 40 }),
  insert: fc.oneof(
    fc.constantFrom('', ';', ',', '"', '\n', '\r\n', '\u0000', '{', ']', '"":', '\uFEFF', '-', '1e400', 'ё'),
    fc.string({ maxLength: 12 }),
  ),
});

const mutation = (base: Base) =>
  fc.oneof(
    fc.array(textEdit, { minLength: 1, maxLength: 4 }).map((edits) => {
      let text = base.text;
      for (const e of edits) {
        const at = Math.floor(e.at * text.length);
        text = text.slice(0, at) + e.insert + text.slice(at + e.cut);
      }
      return text;
    }),
    fc
      .double({ min: 0, max: 1, noNaN: true })
      .map((f) => base.text.slice(0, Math.floor(f * base.text.length))),
    ...(base.json
      ? [
          fc
            .record({
              path: fc.nat(),
              value: fc.constantFrom(...HOSTILE),
              remove: fc.boolean(),
            })
            .map(({ path, value, remove }) => {
              const all = paths(base.json);
              return JSON.stringify(setAt(base.json, all[path % all.length], value, remove));
            }),
        ]
      : []),
  );

/** Where a message may point when the file cannot be parsed at all, or has no rows. */
const WHOLE_FILE =
  /не удалось разобрать JSON|файл пуст|нет обязательных столбцов|укажите дату снимка|должен содержать массив flats|нет ни одного/;
const PLACE =
  /\[\d+\]|строка \d+|\b(date|developer|project|flats|id|building|section|floor|number|rooms|area|finish|settlementDate|price|basePrice|status)\b/;

describe('readers on mutated real fixtures: never a crash, every message placed, nothing half-written', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let work: string;
  beforeAll(async () => {
    const fresh = await freshDb('pglite');
    db = fresh.db;
    drop = fresh.drop;
    work = mkdtempSync(join(tmpdir(), 'cena-fuzz-'));
  });
  afterAll(async () => {
    await drop?.();
    rmSync(work, { recursive: true, force: true });
  });

  for (const base of BASES) {
    it(`${base.format}: 150 mutations`, async () => {
      const dir = join(work, base.format);
      mkdirSync(dir, { recursive: true });
      if (base.format === 'pik-csv')
        copyFileSync(join(FIXTURES, 'pik-scrape', 'projects.csv'), join(dir, 'projects.csv'));
      const path = join(dir, base.file);
      const importer = new Importer(db, 2);
      const seen = { accepted: 0, rejected: 0 };
      await fc.assert(
        fc.asyncProperty(mutation(base), async (text) => {
          writeFileSync(path, text);
          const options = {
            format: base.format,
            ...(base.format === 'pik-csv' ? { date: '2021-01-15' } : {}),
          };
          const items: ReadItem[] = [];
          for await (const item of readFileSnapshots(path, options)) items.push(item);
          for (const item of items)
            if ('errors' in item)
              for (const message of item.errors) {
                expect(message.startsWith(`${basename(path)}: `), message).toBe(true);
                if (!WHOLE_FILE.test(message)) expect(message, message).toMatch(PLACE);
                expect(message.includes('\u0000')).toBe(false);
              }
          const before = await fingerprint(db);
          const rejected = items.some((i) => 'errors' in i);
          try {
            await importBatch(importer, [() => readFileSnapshots(path, options)]);
            expect(rejected).toBe(false);
            seen.accepted++;
          } catch (error) {
            seen.rejected++;
            expect(error, String(error)).toBeInstanceOf(SnapshotValidationError);
            expect(await fingerprint(db)).toEqual(before);
          }
        }),
        { numRuns: 150, seed: 1313 },
      );
      // the mutations reach both sides: files still valid, and files refused
      expect(seen.accepted).toBeGreaterThan(0);
      expect(seen.rejected).toBeGreaterThan(10);
    }, 120_000);
  }
});
