import {
  buildingLabel,
  CSV_BOM,
  csvLine,
  facingLabel,
  formatDecimal2,
  formatPercent,
  quarterLabel,
  roomsLabel,
  type ShortFlatSummary,
} from '@cena-metra/contract';

export const PAGE_SIZE = 100;

export type SummaryKey = Exclude<keyof ShortFlatSummary, 'id'>;

export interface SummaryColumn {
  key: SummaryKey;
  label: string;
  numeric: boolean;
  format: (row: ShortFlatSummary) => string;
  /** value for CSV: numbers with a decimal comma and no thousands separator (Excel, ru-RU) */
  csv: (row: ShortFlatSummary) => string;
}

const price = (key: SummaryKey, label: string): SummaryColumn => ({
  key,
  label,
  numeric: true,
  format: (r) => formatDecimal2(r[key] as number),
  csv: (r) => (r[key] as number).toFixed(2).replace('.', ','),
});
const discount = (key: SummaryKey, label: string): SummaryColumn => ({
  key,
  label,
  numeric: true,
  format: (r) => formatPercent(r[key] as number),
  csv: (r) => (r[key] as number).toFixed(2).replace('.', ','),
});

/** The 12 columns of the dashboard's summary table (spec §2). */
export const SUMMARY_COLUMNS: SummaryColumn[] = [
  {
    key: 'buildingName',
    label: 'Корпус',
    numeric: false,
    format: (r) => buildingLabel(r.buildingName),
    csv: (r) => buildingLabel(r.buildingName),
  },
  {
    key: 'settlementDate',
    label: 'Дата сдачи',
    numeric: false,
    format: (r) => (r.settlementDate ? quarterLabel(r.settlementDate) : '—'),
    csv: (r) => (r.settlementDate ? quarterLabel(r.settlementDate) : ''),
  },
  {
    key: 'facingType',
    label: 'Отделка',
    numeric: false,
    format: (r) => facingLabel(r.facingType),
    csv: (r) => facingLabel(r.facingType),
  },
  {
    key: 'roomsNumber',
    label: 'Комнатность',
    numeric: true,
    format: (r) => roomsLabel(r.roomsNumber),
    csv: (r) => roomsLabel(r.roomsNumber),
  },
  {
    key: 'activeFlatsCount',
    label: 'Квартир в продаже',
    numeric: true,
    format: (r) => String(r.activeFlatsCount),
    csv: (r) => String(r.activeFlatsCount),
  },
  price('maxMeterPrice', 'Макс. цена м², ₽'),
  price('avgMeterPrice', 'Сред. цена м², ₽'),
  price('minMeterPrice', 'Мин. цена м², ₽'),
  discount('maxDiscountLastDay', 'Макс. скидка за день'),
  discount('maxDiscount7Days', 'Макс. скидка за 7 дней'),
  discount('maxDiscount1Month', 'Макс. скидка за месяц'),
  discount('maxDiscount1Year', 'Макс. скидка за год'),
];

export interface SortState {
  key: SummaryKey;
  dir: 'asc' | 'desc';
}

const collator = new Intl.Collator('ru', { numeric: true });

/** Rows sorted by a column (nulls last whatever the direction); the server's order when no sort is set. */
export function sortRows(rows: ShortFlatSummary[], sort: SortState | null): ShortFlatSummary[] {
  if (!sort) return rows;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[sort.key];
    const y = b[sort.key];
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * sign;
    return collator.compare(String(x), String(y)) * sign;
  });
}

/** Page `page` (1-based) of the rows and the page count (at least 1). */
export function pageOf<T>(
  rows: T[],
  page: number,
  size = PAGE_SIZE,
): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, page), pages);
  return { rows: rows.slice((current - 1) * size, current * size), page: current, pages };
}

/** CSV for Excel: UTF-8 BOM, `;` separator, CRLF lines, the table's columns and labels (formulas defused). */
export function summaryCsv(rows: ShortFlatSummary[]): string {
  const lines = [csvLine(SUMMARY_COLUMNS.map((c) => c.label))];
  for (const row of rows) lines.push(csvLine(SUMMARY_COLUMNS.map((c) => c.csv(row))));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}
