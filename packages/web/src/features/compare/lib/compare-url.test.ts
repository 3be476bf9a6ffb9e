import { describe, expect, it } from 'vitest';
import { readCompare, seriesChange, withoutProject, withProject, writeCompare } from './compare-url';

const today = '2026-11-23';

describe('the comparison URL', () => {
  it('reads ids in order, unique, at most 10; defaults to prices over the last year', () => {
    const s = readCompare(new URLSearchParams('projects=3,1,3,x,-2,0,5'), today);
    expect(s).toEqual({
      projectIds: [3, 1, 5],
      metric: 'avgMeterPrice',
      from: '2025-11-23',
      to: today,
      availableOnly: false,
    });
    expect(writeCompare(s, today).toString()).toBe('projects=3%2C1%2C5');
    const many = readCompare(
      new URLSearchParams(`projects=${Array.from({ length: 14 }, (_, i) => i + 1).join(',')}`),
      today,
    );
    expect(many.projectIds).toHaveLength(10);
    expect(readCompare(new URLSearchParams('metric=volume'), today).metric).toBe('avgMeterPrice');
  });
  it('round-trips a changed state and adds or removes projects within the limit', () => {
    const s = {
      projectIds: [2],
      metric: 'index' as const,
      from: '2026-01-01',
      to: '2026-06-30',
      availableOnly: true,
    };
    expect(readCompare(writeCompare(s, today), today)).toEqual(s);
    expect(withProject(s, 7).projectIds).toEqual([2, 7]);
    expect(withProject(s, 2)).toBe(s);
    const full = { ...s, projectIds: Array.from({ length: 10 }, (_, i) => i + 1) };
    expect(withProject(full, 99)).toBe(full);
    expect(withoutProject(s, 2).projectIds).toEqual([]);
  });
  it('says the change from the first value to the last, skipping empty days', () => {
    expect(
      seriesChange([
        { date: '2026-01-01', value: null },
        { date: '2026-01-02', value: 200 },
        { date: '2026-01-03', value: 250 },
      ]),
    ).toEqual({
      first: { date: '2026-01-02', value: 200 },
      last: { date: '2026-01-03', value: 250 },
      change: 25,
    });
    expect(seriesChange([]).change).toBeNull();
  });
});
