import type { DiscountPeriod, DiscountProjectRow } from '@cena-metra/contract';

export const PERIOD_LABELS: Record<DiscountPeriod, string> = {
  DAY: 'День',
  WEEK: 'Неделя',
  MONTH: 'Месяц',
  YEAR: 'Год',
};

export type DiscountSortKey =
  | 'projectName'
  | 'activeFlats'
  | 'discountedFlats'
  | 'maxDiscountPercent'
  | 'avgDiscountPercent'
  | 'avgMeterPrice';

const collator = new Intl.Collator('ru', { numeric: true });

/** Project rows sorted by a column; nulls last; ties by project name. */
export function sortProjectRows(
  rows: DiscountProjectRow[],
  key: DiscountSortKey,
  dir: 'asc' | 'desc',
): DiscountProjectRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const c =
        typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
      if (c !== 0) return c * sign;
    }
    return collator.compare(a.projectName, b.projectName);
  });
}
