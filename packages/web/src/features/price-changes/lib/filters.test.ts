import { describe, expect, it } from 'vitest';
import { apiQuery, nextSort, readPriceChangeFilters, writePriceChangeFilters } from './filters';

describe('price change filters', () => {
  it('defaults to the 30 days up to today, newest first, page 1', () => {
    expect(readPriceChangeFilters(new URLSearchParams(), '2026-11-22')).toEqual({
      from: '2026-10-23',
      to: '2026-11-22',
      developerId: null,
      projectId: null,
      kind: null,
      sort: '-date',
      page: 1,
    });
  });

  it('reads back what it writes, and ignores nonsense', () => {
    const f = readPriceChangeFilters(
      new URLSearchParams(
        'from=2026-01-01&to=2026-02-01&developer=3&project=7&kind=PRICE_DOWN&sort=changePercent&page=4',
      ),
      '2026-11-22',
    );
    expect(readPriceChangeFilters(writePriceChangeFilters(f), '2026-11-22')).toEqual(f);
    const bad = readPriceChangeFilters(
      new URLSearchParams('kind=SOLD&sort=drop&page=-1&developer=x'),
      '2026-11-22',
    );
    expect(bad).toMatchObject({ kind: null, sort: '-date', page: 1, developerId: null });
  });

  it('asks the API with paging, leaving out empty filters', () => {
    const f = readPriceChangeFilters(new URLSearchParams('from=2026-01-01&to=2026-02-01'), '2026-11-22');
    expect(apiQuery(f)).toEqual({
      from: '2026-01-01',
      to: '2026-02-01',
      developerId: undefined,
      projectId: undefined,
      kind: undefined,
      sort: '-date',
      page: 1,
      pageSize: 50,
    });
  });

  it.each([
    ['-date', 'date', 'date'],
    ['date', 'date', '-date'],
    ['-date', 'changePercent', '-changePercent'],
    ['-changePercent', 'changePercent', 'changePercent'],
  ] as const)('%s, click %s → %s', (current, column, next) => {
    expect(nextSort(current, column)).toBe(next);
  });
});
