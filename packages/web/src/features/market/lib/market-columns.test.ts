import type { MarketRow } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { marketColumns, reliabilityText } from './market-columns';

const reliability = {
  objects: 4,
  movedLater: 1,
  movedLaterShare: 0.25,
  monthsLast12: 6,
  meanMonthsLast12: 6,
  shiftsLast12: 1,
};

describe('«Надёжность сроков» on the developers’ table', () => {
  it('says the share of objects moved later and the months moved in a year', () => {
    expect(reliabilityText(reliability)).toBe('25 % объектов, +6 мес. за год');
    expect(reliabilityText({ ...reliability, movedLater: 0, movedLaterShare: 0, monthsLast12: -3 })).toBe(
      '0 % объектов, −3 мес. за год',
    );
    expect(reliabilityText({ ...reliability, monthsLast12: 0 })).toBe('25 % объектов');
    expect(reliabilityText(undefined)).toBe('—');
  });
  it('is a column of the developers only, exported as a percentage', () => {
    const map = new Map([[7, reliability]]);
    const developers = marketColumns('developers', 'district', undefined, map);
    const column = developers.find((c) => c.key === 'reliability')!;
    expect(column.value({ id: 7 } as MarketRow)).toBe(25);
    expect(column.value({ id: 8 } as MarketRow)).toBeNull();
    expect(marketColumns('projects', 'district', undefined, map).some((c) => c.key === 'reliability')).toBe(
      false,
    );
    expect(marketColumns('developers').some((c) => c.key === 'reliability')).toBe(false);
  });
});
