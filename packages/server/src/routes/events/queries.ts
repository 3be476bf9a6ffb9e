import {
  EVENT_KIND_LABELS,
  facingLabel,
  type PriceChange,
  type PriceChangesParams,
  type PriceChangesResponse,
  roomsLabel,
} from '@cena-metra/contract';
import type { Db } from '../../db/driver.js';
import { BadRequestError } from '../../lib/errors.js';

/** The filter of a price-changes list or CSV: the validated query without its paging. */
export type PriceChangesFilter = Omit<PriceChangesParams, 'page' | 'pageSize'>;

const ORDER: Record<string, string> = {
  date: 'e.day asc, e.project_id, e.flat_id',
  '-date': 'e.day desc, e.project_id, e.flat_id',
  changePercent: 'e.change_percent asc nulls last, e.day desc, e.flat_id',
  '-changePercent': 'e.change_percent desc nulls last, e.day desc, e.flat_id',
  newPrice: 'e.new_price asc nulls last, e.day desc, e.flat_id',
  '-newPrice': 'e.new_price desc nulls last, e.day desc, e.flat_id',
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
  e.old_price as "oldPrice", e.new_price as "newPrice", e.change_percent as "changePercent"`;

function rounded(rows: PriceChange[]): PriceChange[] {
  for (const r of rows)
    if (r.changePercent !== null) r.changePercent = Math.round(r.changePercent * 100) / 100;
  return rows;
}

/** Events of §4.4 in a date range, filtered, sorted and paged on the server. */
export async function getPriceChanges(db: Db, f: PriceChangesParams): Promise<PriceChangesResponse> {
  const w = where(f);
  const [{ total }] = await db.query<{ total: number }>(`select count(*)::int as total ${w.sql}`, w.params);
  const rows = await db.query<PriceChange>(
    `select ${COLUMNS} ${w.sql} order by ${ORDER[f.sort]} limit ${f.pageSize} offset ${(f.page - 1) * f.pageSize}`,
    w.params,
  );
  return { total, page: f.page, pageSize: f.pageSize, rows: rounded(rows) };
}

export const CSV_MAX_ROWS = 100_000;

function cell(value: string): string {
  return /[";\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
const decimal = (v: number | null, digits = 2) => (v === null ? '' : v.toFixed(digits).replace('.', ','));

/** The same rows as CSV for Excel: UTF-8 BOM, `;`, decimal commas, CRLF (at most CSV_MAX_ROWS rows). */
export async function getPriceChangesCsv(db: Db, f: PriceChangesFilter): Promise<string> {
  const w = where(f);
  const rows = rounded(
    await db.query<PriceChange>(
      `select ${COLUMNS} ${w.sql} order by ${ORDER[f.sort]} limit ${CSV_MAX_ROWS}`,
      w.params,
    ),
  );
  const head = [
    'Дата',
    'Событие',
    'Застройщик',
    'Проект',
    'Квартира',
    'Корпус',
    'Комнатность',
    'Площадь, м²',
    'Этаж',
    'Отделка',
    'Старая цена, ₽',
    'Новая цена, ₽',
    'Изменение, %',
  ];
  const lines = [head.join(';')];
  for (const r of rows)
    lines.push(
      [
        r.date,
        EVENT_KIND_LABELS[r.kind],
        r.developerName,
        r.projectName,
        String(r.flatId),
        r.building,
        roomsLabel(r.rooms),
        decimal(r.area),
        r.floor === null ? '' : String(r.floor),
        facingLabel(r.facing),
        r.oldPrice === null ? '' : String(r.oldPrice),
        r.newPrice === null ? '' : String(r.newPrice),
        decimal(r.changePercent),
      ]
        .map(cell)
        .join(';'),
    );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
