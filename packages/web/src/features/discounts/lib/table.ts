import type { DiscountPeriod, DiscountProjectRow } from '@cena-metra/contract';
import { byName, sortByValue } from '../../../lib/columns';

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

/** Project rows sorted by a column; nulls last; ties by project name. */
export function sortProjectRows(
  rows: DiscountProjectRow[],
  key: DiscountSortKey,
  dir: 'asc' | 'desc',
): DiscountProjectRow[] {
  return sortByValue(
    rows,
    (r) => r[key],
    dir,
    byName((r) => r.projectName),
  );
}
