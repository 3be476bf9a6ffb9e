import {
  buildingLabel,
  facingLabel,
  formatDecimal2,
  formatPercent,
  type PaceRow,
  quarterLabel,
  roomsLabel,
  type Sheet,
  type SheetCellType,
  type ShortFlatSummary,
  sheetCsv,
} from '@cena-metra/contract';

export { PAGE_SIZE, pageOf } from '../../../lib/paging';

/** A summary row with its sales pace (§10.5) on the summary's day, when known. */
export type SummaryRow = ShortFlatSummary & {
  absorption30?: number | null;
  medianDaysOnMarket?: number | null;
  medianStockAge?: number | null;
};

export type SummaryKey = Exclude<keyof SummaryRow, 'id'>;

export interface SummaryColumn {
  key: SummaryKey;
  label: string;
  numeric: boolean;
  format: (row: SummaryRow) => string;
  /** how the column is exported (CSV and Excel) */
  type: SheetCellType;
  value: (row: SummaryRow) => string | number | null;
}

const number = (r: SummaryRow, key: SummaryKey) => (r[key] ?? null) as number | null;
const price = (key: SummaryKey, label: string): SummaryColumn => ({
  key,
  label,
  numeric: true,
  format: (r) => formatDecimal2(r[key] as number),
  type: 'decimal',
  value: (r) => number(r, key),
});
const discount = (key: SummaryKey, label: string): SummaryColumn => ({
  key,
  label,
  numeric: true,
  format: (r) => formatPercent(r[key] as number),
  type: 'decimal',
  value: (r) => number(r, key),
});
/** A column of numbers that may be missing (shown «—»). */
const orDash = (key: SummaryKey, label: string, format: (v: number) => string): SummaryColumn => ({
  key,
  label,
  numeric: true,
  format: (r) => (number(r, key) === null ? '—' : format(number(r, key)!)),
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
    numeric: false,
    format: (r) => buildingLabel(r.buildingName),
    type: 'text',
    value: (r) => buildingLabel(r.buildingName),
  },
  {
    key: 'settlementDate',
    label: 'Дата сдачи',
    numeric: false,
    format: (r) => (r.settlementDate ? quarterLabel(r.settlementDate) : '—'),
    type: 'text',
    value: (r) => (r.settlementDate ? quarterLabel(r.settlementDate) : null),
  },
  {
    key: 'facingType',
    label: 'Отделка',
    numeric: false,
    format: (r) => facingLabel(r.facingType),
    type: 'text',
    value: (r) => facingLabel(r.facingType),
  },
  {
    key: 'roomsNumber',
    label: 'Комнатность',
    numeric: true,
    format: (r) => roomsLabel(r.roomsNumber),
    type: 'text',
    value: (r) => roomsLabel(r.roomsNumber),
  },
  {
    key: 'activeFlatsCount',
    label: 'Квартир в продаже',
    numeric: true,
    format: (r) => String(r.activeFlatsCount),
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
export function summarySheet(rows: SummaryRow[]): Sheet<SummaryRow> {
  return {
    name: 'Сводка по корпусам',
    rows,
    columns: SUMMARY_COLUMNS.map((c) => ({ header: c.label, type: c.type, value: c.value })),
  };
}

export interface SortState {
  key: SummaryKey;
  dir: 'asc' | 'desc';
}

const collator = new Intl.Collator('ru', { numeric: true });

/** Rows sorted by a column (nulls last whatever the direction); the server's order when no sort is set. */
export function sortRows(rows: SummaryRow[], sort: SortState | null): SummaryRow[] {
  if (!sort) return rows;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[sort.key] ?? null;
    const y = b[sort.key] ?? null;
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * sign;
    return collator.compare(String(x), String(y)) * sign;
  });
}

/** CSV for Excel: UTF-8 BOM, `;` separator, CRLF lines, the table's columns and labels (formulas defused). */
export function summaryCsv(rows: SummaryRow[]): string {
  return sheetCsv(summarySheet(rows));
}
