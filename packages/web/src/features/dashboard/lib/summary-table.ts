import {
  buildingLabel,
  facingLabel,
  formatDecimal2,
  formatPercent,
  type PaceRow,
  quarterLabel,
  roomsLabel,
  type Sheet,
  type ShortFlatSummary,
  sheetCsv,
} from '@cena-metra/contract';
import { type Column, type ColumnSort, sheetOf, sortRowsBy } from '../../../lib/columns';

export { PAGE_SIZE, pageOf } from '../../../lib/paging';

/** A summary row with its sales pace (§10.5) on the summary's day, when known. */
export type SummaryRow = ShortFlatSummary & {
  absorption30?: number | null;
  medianDaysOnMarket?: number | null;
  medianStockAge?: number | null;
};

export type SummaryKey = Exclude<keyof SummaryRow, 'id'>;

type SummaryColumn = Column<SummaryRow> & { key: SummaryKey };

const number = (r: SummaryRow, key: SummaryKey) => (r[key] ?? null) as number | null;
/** A column sorted by the row's own field (a quarter by its date, rooms by their number). */
const raw = (key: SummaryKey) => (r: SummaryRow) => (r[key] ?? null) as string | number | null;
const price = (key: SummaryKey, label: string): SummaryColumn => ({
  key,
  label,
  text: (r) => formatDecimal2(r[key] as number),
  type: 'decimal',
  value: (r) => number(r, key),
});
const discount = (key: SummaryKey, label: string): SummaryColumn => ({
  key,
  label,
  text: (r) => formatPercent(r[key] as number),
  type: 'decimal',
  value: (r) => number(r, key),
});
/** A column of numbers that may be missing (shown «—»). */
const orDash = (key: SummaryKey, label: string, format: (v: number) => string): SummaryColumn => ({
  key,
  label,
  text: (r) => (number(r, key) === null ? '—' : format(number(r, key)!)),
  type: 'decimal',
  value: (r) => number(r, key),
});

/**
 * The 12 columns of the dashboard's summary table (spec §2), the developer's own discount (§11.4), then the
 * row's sales pace (§10.5).
 */
export const SUMMARY_COLUMNS: SummaryColumn[] = [
  {
    key: 'buildingName',
    label: 'Корпус',
    type: 'text',
    value: (r) => buildingLabel(r.buildingName),
    sort: raw('buildingName'),
  },
  {
    key: 'settlementDate',
    label: 'Дата сдачи',
    type: 'text',
    value: (r) => (r.settlementDate ? quarterLabel(r.settlementDate) : null),
    sort: raw('settlementDate'),
  },
  {
    key: 'facingType',
    label: 'Отделка',
    type: 'text',
    value: (r) => facingLabel(r.facingType),
    sort: raw('facingType'),
  },
  {
    key: 'roomsNumber',
    label: 'Комнатность',
    numeric: true,
    type: 'text',
    value: (r) => roomsLabel(r.roomsNumber),
    sort: raw('roomsNumber'),
  },
  {
    key: 'activeFlatsCount',
    label: 'Квартир в продаже',
    text: (r) => String(r.activeFlatsCount),
    type: 'integer',
    value: (r) => r.activeFlatsCount,
  },
  price('maxMeterPrice', 'Макс. цена м², ₽'),
  price('avgMeterPrice', 'Сред. цена м², ₽'),
  price('minMeterPrice', 'Мин. цена м², ₽'),
  discount('maxDiscountLastDay', 'Макс. скидка за день'),
  discount('maxDiscount7Days', 'Макс. скидка за 7 дней'),
  discount('maxDiscount1Month', 'Макс. скидка за месяц'),
  discount('maxDiscount1Year', 'Макс. скидка за год'),
  // §11.4: the developer's own discount, beside the history's and never mixed with it; «—» without a
  // crossed-out price (or in a summary kept before the column existed)
  orDash('maxDeveloperDiscount', 'Скидка застройщика', formatPercent),
  orDash('absorption30', 'Вымываемость 30 дн.', formatPercent),
  orDash('medianDaysOnMarket', 'Срок продажи, дн.', (v) => formatDecimal2(v).replace(/,00$/, '')),
  orDash('medianStockAge', 'В продаже, дн.', (v) => formatDecimal2(v).replace(/,00$/, '')),
];

/** The rows with their pace (by row id); rows the pace does not name keep none. */
export function withPace(rows: ShortFlatSummary[], pace: PaceRow[] | undefined): SummaryRow[] {
  if (!pace) return rows;
  const byId = new Map(pace.map((p) => [p.id, p]));
  return rows.map((r) => {
    const p = byId.get(r.id);
    return p
      ? {
          ...r,
          absorption30: p.absorption30,
          medianDaysOnMarket: p.medianDaysOnMarket,
          medianStockAge: p.medianStockAge,
        }
      : r;
  });
}

/** The table as exported (CSV and Excel): its columns and labels, typed. */
export const summarySheet = (rows: SummaryRow[]): Sheet<SummaryRow> =>
  sheetOf('Сводка по корпусам', SUMMARY_COLUMNS, rows);

export type SortState = ColumnSort;

/** Rows sorted by a column (nulls last whatever the direction); the server's order when no sort is set. */
export const sortRows = (rows: SummaryRow[], sort: SortState | null): SummaryRow[] =>
  sortRowsBy(rows, SUMMARY_COLUMNS, sort);

/** CSV for Excel: UTF-8 BOM, `;` separator, CRLF lines, the table's columns and labels (formulas defused). */
export function summaryCsv(rows: SummaryRow[]): string {
  return sheetCsv(summarySheet(rows));
}
