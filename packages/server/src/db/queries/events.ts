import { setImmediate } from 'node:timers/promises';
import {
  CSV_BOM,
  csvLine,
  PRICE_CHANGE_COLUMNS,
  type PriceChange,
  type PriceChangesParams,
  type PriceChangesResponse,
  sheetCsvLine,
} from '@cena-metra/contract';
import { isPriceEventAfterGap } from '../../analytics/carry.js';
import { fromDay, toDay, todayIso } from '../../lib/days.js';
import { BadRequestError } from '../../lib/errors.js';
import type { Db } from '../driver.js';
import { gapDaysSql } from './gaps.js';

/** The filter of a price-changes list or CSV: the validated query without its paging. */
export type PriceChangesFilter = Omit<PriceChangesParams, 'page' | 'pageSize'> & { from: string; to: string };

const ORDER: Record<string, string> = {
  date: 'e.day asc, e.project_id, e.flat_id, e.kind',
  '-date': 'e.day desc, e.project_id, e.flat_id, e.kind',
  changePercent: 'e.change_percent asc nulls last, e.day desc, e.flat_id, e.kind',
  '-changePercent': 'e.change_percent desc nulls last, e.day desc, e.flat_id, e.kind',
  newPrice: 'e.new_price asc nulls last, e.day desc, e.flat_id, e.kind',
  '-newPrice': 'e.new_price desc nulls last, e.day desc, e.flat_id, e.kind',
};

function where(f: PriceChangesFilter) {
  if (f.from > f.to) throw new BadRequestError('to: дата окончания раньше даты начала (from)');
  return {
    sql: `from flat_event e join project p on p.id = e.project_id join developer d on d.id = p.developer_id
          where e.day between $1 and $2 and ($3::int is null or p.developer_id = $3)
            and ($4::int is null or e.project_id = $4) and ($5::text is null or e.kind = $5)`,
    params: [f.from, f.to, f.developerId ?? null, f.projectId ?? null, f.kind ?? null],
  };
}

const COLUMNS = `e.day::text as date, e.kind, e.flat_id as "flatId", e.project_id as "projectId",
  p.name as "projectName", d.name as "developerName", e.building, e.rooms, e.area, e.floor, e.facing,
  e.old_price as "oldPrice", e.new_price as "newPrice", e.change_percent as "changePercent",
  e.old_area as "oldArea", ${gapDaysSql('e.project_id', 'e.day')} as "gapDays"`;

/** Percents to 2 decimals, and whether each price event came across a gap without data (§10.1). */
function rounded(rows: PriceChange[], carry: number): PriceChange[] {
  for (const r of rows) {
    if (r.changePercent !== null) r.changePercent = Math.round(r.changePercent * 100) / 100;
    r.afterGap = isPriceEventAfterGap(r.kind, r.gapDays, carry);
  }
  return rows;
}

/** Events of §4.4 in a date range, filtered, sorted and paged on the server. */
export async function getPriceChanges(
  db: Db,
  f: PriceChangesParams & { from: string; to: string },
  carry: number,
): Promise<PriceChangesResponse> {
  const w = where(f);
  const [{ total }] = await db.query<{ total: number }>(`select count(*)::int as total ${w.sql}`, w.params);
  const rows = await db.query<PriceChange>(
    `select ${COLUMNS} ${w.sql} order by ${ORDER[f.sort]} limit ${f.pageSize} offset ${(f.page - 1) * f.pageSize}`,
    w.params,
  );
  return { total, page: f.page, pageSize: f.pageSize, rows: rounded(rows, carry) };
}

/**
 * Rows a CSV page reads at once: memory and each query stay small whatever the range. The embedded
 * database runs a query in this very thread and holds every other request until it ends (~25 ms for 500
 * rows of the demo, sorting and joining in WebAssembly): there a page is a fifth as long, and the event
 * loop turns between pages, so a health check or a page waits for one short query, not for a run of them.
 */
const csvPageRows = (db: Db) => (db.kind === 'pglite' ? 100 : 500);

interface SortKey {
  column: 'e.day' | 'e.project_id' | 'e.flat_id' | 'e.kind' | 'e.change_percent' | 'e.new_price';
  field: 'date' | 'projectId' | 'flatId' | 'kind' | 'changePercent' | 'newPrice';
  desc: boolean;
}
const key = (column: SortKey['column'], field: SortKey['field'], desc = false): SortKey => ({
  column,
  field,
  desc,
});
/**
 * The rest of every order: (day, flat id, kind) is unique (a flat may change its price and its area on one
 * day), so a page always knows where it stopped.
 */
const BY_DAY_DESC = [key('e.day', 'date', true), key('e.flat_id', 'flatId'), key('e.kind', 'kind')];

/**
 * Each sort of ORDER as phases without nulls: first the events that have the sorted value, in its order,
 * then those without it (NEW and REMOVED have no change, REMOVED no new price), newest first — the same
 * order as ORDER's `nulls last`.
 */
const PHASES: Record<string, { where: string; keys: SortKey[] }[]> = {
  date: [
    {
      where: 'true',
      keys: [
        key('e.day', 'date'),
        key('e.project_id', 'projectId'),
        key('e.flat_id', 'flatId'),
        key('e.kind', 'kind'),
      ],
    },
  ],
  '-date': [
    {
      where: 'true',
      keys: [
        key('e.day', 'date', true),
        key('e.project_id', 'projectId'),
        key('e.flat_id', 'flatId'),
        key('e.kind', 'kind'),
      ],
    },
  ],
  changePercent: [
    {
      where: 'e.change_percent is not null',
      keys: [key('e.change_percent', 'changePercent'), ...BY_DAY_DESC],
    },
    { where: 'e.change_percent is null', keys: BY_DAY_DESC },
  ],
  '-changePercent': [
    {
      where: 'e.change_percent is not null',
      keys: [key('e.change_percent', 'changePercent', true), ...BY_DAY_DESC],
    },
    { where: 'e.change_percent is null', keys: BY_DAY_DESC },
  ],
  newPrice: [
    { where: 'e.new_price is not null', keys: [key('e.new_price', 'newPrice'), ...BY_DAY_DESC] },
    { where: 'e.new_price is null', keys: BY_DAY_DESC },
  ],
  '-newPrice': [
    { where: 'e.new_price is not null', keys: [key('e.new_price', 'newPrice', true), ...BY_DAY_DESC] },
    { where: 'e.new_price is null', keys: BY_DAY_DESC },
  ],
};

/**
 * "After the row last sent" for keys without nulls: `k1 ≥ v1 and (k1 > v1 or (k1 = v1 and …))`, the leading
 * bound written alone so the database starts an index scan there.
 */
function after(keys: SortKey[], last: PriceChange, params: unknown[]): string {
  const placeholder = (k: SortKey) => {
    params.push(last[k.field]);
    return k.column === 'e.day' ? `$${params.length}::date` : `$${params.length}`;
  };
  const build = (i: number): string => {
    const k = keys[i];
    const v = placeholder(k);
    const strict = `${k.column} ${k.desc ? '<' : '>'} ${v}`;
    if (i === keys.length - 1) return strict;
    return `(${strict} or (${k.column} = ${v} and ${build(i + 1)}))`;
  };
  const first = keys[0];
  const bound = `${first.column} ${first.desc ? '<=' : '>='} ${placeholder(first)}`;
  return `${bound} and ${build(0)}`;
}

/**
 * Every event of the filter in the list's order, page by page after the last row read (keyset), so memory
 * and each query stay bounded and other requests run between pages, whatever the range.
 */
export async function* priceChangePages(
  db: Db,
  f: PriceChangesFilter,
  carry: number,
): AsyncGenerator<PriceChange[]> {
  const w = where(f);
  const size = csvPageRows(db);
  for (const phase of PHASES[f.sort]) {
    let last: PriceChange | null = null;
    for (;;) {
      if (last && db.kind === 'pglite') await setImmediate();
      const params = [...w.params];
      const cond = last ? `and ${after(phase.keys, last, params)}` : '';
      const order = phase.keys.map((k) => `${k.column}${k.desc ? ' desc' : ''}`).join(', ');
      const rows: PriceChange[] = await db.query<PriceChange>(
        `select ${COLUMNS} ${w.sql} and ${phase.where} ${cond} order by ${order} limit ${size}`,
        params,
      );
      if (rows.length < size) {
        if (rows.length) yield rounded(rows, carry);
        break;
      }
      // the stored values, not the rounded ones shown, say where the next page starts
      last = { ...rows[rows.length - 1] };
      yield rounded(rows, carry);
    }
  }
}

/**
 * Every event of the filter as CSV for Excel (UTF-8 BOM, `;`, decimal commas, CRLF), a page at a time:
 * the caller streams it, so a range of any length is whole and the server keeps serving meanwhile.
 */
export async function* priceChangesCsv(db: Db, f: PriceChangesFilter, carry: number): AsyncGenerator<string> {
  where(f); // a bad filter fails on the first read, before any byte is sent
  yield `${CSV_BOM}${csvLine(PRICE_CHANGE_COLUMNS.map((c) => c.header))}\r\n`;
  for await (const page of priceChangePages(db, f, carry)) {
    let chunk = '';
    for (const r of page) chunk += `${sheetCsvLine(PRICE_CHANGE_COLUMNS, r)}\r\n`;
    yield chunk;
  }
}

/** Days of data a price-changes list covers when the query names no range. */
export const DEFAULT_RANGE_DAYS = 30;

/**
 * The query's range, or by default the last DEFAULT_RANGE_DAYS days of data (up to the latest event,
 * else the latest snapshot): `from` alone runs to the latest data, `to` alone starts 29 days before it.
 */
export async function withDefaultRange<T extends { from?: string; to?: string }>(
  db: Db,
  query: T,
): Promise<T & { from: string; to: string }> {
  if (query.from && query.to) return query as T & { from: string; to: string };
  let to = query.to;
  if (!to) {
    const [row] = await db.query<{ last: string | null }>(
      `select coalesce((select max(day) from flat_event), (select max(last_snapshot_date) from project))::text as last`,
    );
    to = row?.last ?? todayIso();
    if (query.from && query.from > to) to = query.from;
  }
  const from = query.from ?? fromDay(toDay(to) - (DEFAULT_RANGE_DAYS - 1));
  return { ...query, from, to };
}
