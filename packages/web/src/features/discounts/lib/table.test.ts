import type { DiscountProjectRow } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { sortProjectRows } from './table';

const row = (
  projectName: string,
  maxDiscountPercent: number,
  avgMeterPrice: number | null,
): DiscountProjectRow => ({
  projectId: projectName.length,
  projectName,
  developerId: 1,
  developerName: 'Д',
  activeFlats: 10,
  discountedFlats: 2,
  maxDiscountPercent,
  avgDiscountPercent: 1,
  avgMeterPrice,
});

describe('discounts by project: sorting', () => {
  const rows = [row('Квартал 10', 5, 300_000), row('Квартал 2', 12.5, null), row('Арбат', 5, 250_000)];
  it.each([
    ['maxDiscountPercent', 'desc', ['Квартал 2', 'Арбат', 'Квартал 10']],
    ['maxDiscountPercent', 'asc', ['Арбат', 'Квартал 10', 'Квартал 2']],
    ['avgMeterPrice', 'asc', ['Арбат', 'Квартал 10', 'Квартал 2']],
    ['avgMeterPrice', 'desc', ['Квартал 10', 'Арбат', 'Квартал 2']],
    ['projectName', 'asc', ['Арбат', 'Квартал 2', 'Квартал 10']],
  ] as const)('%s %s → %j', (key, dir, names) => {
    expect(sortProjectRows(rows, key, dir).map((r) => r.projectName)).toEqual(names);
  });
});
