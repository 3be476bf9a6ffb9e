import { basename } from 'node:path';
import { readCsvRecords, splitCsvRecord } from '../csv-parse.js';
import { type Reader, type ReadItem, type ReadOptions, validated } from './types.js';

/** The columns of our CSV (DESIGN §3.2), in their documented order. */
export const CSV_COLUMNS = [
  'date',
  'developer',
  'project',
  'id',
  'building',
  'section',
  'floor',
  'number',
  'rooms',
  'area',
  'finish',
  'settlementDate',
  'price',
  'basePrice',
  'status',
] as const;
/**
 * Optional columns of prices as offered (DESIGN §11.4): the crossed-out price, the promotion, the booking
 * fee, the plan's address; and a price per payment term in a column `price:<term>` (`price:cash`,
 * `price:mortgage`, or a source's own label).
 */
export const CSV_OFFER_COLUMNS = ['oldPrice', 'promo', 'bookingCost', 'planUrl'] as const;
const TERM_PREFIX = 'price:';
const REQUIRED_CSV = ['date', 'developer', 'project', 'id', 'building', 'rooms', 'area', 'price'];

async function* read(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  const file = basename(path);
  let columns: Map<string, number> | null = null;
  let offerColumns: string[] = [];
  let termColumns: string[] = [];
  const groups = new Map<string, { raw: Record<string, unknown> & { flats: unknown[] }; lines: number[] }>();
  for await (const record of readCsvRecords(path)) {
    if (!columns) {
      columns = new Map(record.fields.map((name, i) => [name.trim(), i]));
      offerColumns = CSV_OFFER_COLUMNS.filter((c) => columns!.has(c));
      termColumns = [...columns.keys()].filter((c) => c.startsWith(TERM_PREFIX));
      const missing = REQUIRED_CSV.filter(
        (c) =>
          !columns!.has(c) &&
          !(c === 'date' && options.date) &&
          !(c === 'developer' && options.developer) &&
          !(c === 'project' && options.project),
      );
      if (missing.length) {
        yield { errors: [`${file}: строка 1: нет обязательных столбцов: ${missing.join(', ')}`] };
        return;
      }
      continue;
    }
    const value = (name: string) => {
      const i = columns!.get(name);
      if (i === undefined) return undefined;
      const v = record.fields[i]?.trim();
      return v === '' ? undefined : v;
    };
    const row: Record<string, unknown> = {};
    for (const c of CSV_COLUMNS) row[c] = value(c);
    for (const c of offerColumns) row[c] = value(c);
    if (termColumns.length) {
      const terms: Record<string, string> = {};
      for (const name of termColumns) {
        const price = value(name);
        if (price !== undefined) terms[name.slice(TERM_PREFIX.length)] = price;
      }
      if (Object.keys(terms).length) row.offerPrices = terms;
    }
    const date = options.date ?? (row.date as string | undefined) ?? '';
    const developer = options.developer ?? (row.developer as string | undefined) ?? '';
    const project = options.project ?? (row.project as string | undefined) ?? '';
    const key = `${date}\u0001${developer.trim().toLowerCase()}\u0001${project.trim().toLowerCase()}`;
    let group = groups.get(key);
    if (!group) {
      group = { raw: { date, developer, project, flats: [] }, lines: [] };
      groups.set(key, group);
    }
    const { date: _d, developer: _dv, project: _p, ...flat } = row;
    group.raw.flats.push(flat);
    group.lines.push(record.line);
  }
  if (!columns) {
    yield { errors: [`${file}: файл пуст`] };
    return;
  }
  // each group is released before it is yielded: the raw rows must not outlive their validation
  const pending = [...groups.values()];
  groups.clear();
  while (pending.length) {
    const group = pending.shift()!;
    const item = validated(group.raw, { file }, 'csv', (i, field) => `строка ${group.lines[i]}: ${field}`);
    group.raw.flats.length = 0;
    yield item;
  }
}

/** The header line of a CSV file's first bytes, split into trimmed column names. */
export function csvHeader(head: string): string[] {
  const header = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];
  return splitCsvRecord(header, header.includes(';') ? ';' : ',').map((c) => c.trim());
}

/** Our own CSV (DESIGN §3.2): one flat per row, grouped into snapshots by date, developer and project. */
export const csvReader: Reader = { format: 'csv', detect: (path) => /\.csv$/i.test(path), read };
