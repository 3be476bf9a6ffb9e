import type { MarketRow } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { readMarketFilters, sortMarketRows, writeMarketFilters } from './market-table';

const row = (name: string, over: Partial<MarketRow>): MarketRow => ({
  id: 1,
  name,
  developerId: 1,
  developerName: 'Д',
  projects: 1,
  date: '2026-01-05',
  stock: 10,
  new30: 0,
  gone30: 0,
  absorption: null,
  monthsOfSupply: null,
  medianDaysOnMarket: null,
  avgMeterPrice: null,
  priceClass: null,
  indexChange: 0,
  ...over,
});

describe('the market table', () => {
  const rows = [
    row('Б', { absorption: 5, priceClass: 'business', stock: 3 }),
    row('А', { absorption: null, priceClass: 'economy', stock: 3 }),
    row('В', { absorption: 12.5, priceClass: null, stock: 7 }),
  ];
  it('sorts by a number either way with nulls last, ties by name', () => {
    expect(sortMarketRows(rows, 'absorption', 'desc').map((r) => r.name)).toEqual(['В', 'Б', 'А']);
    expect(sortMarketRows(rows, 'absorption', 'asc').map((r) => r.name)).toEqual(['Б', 'В', 'А']);
    expect(sortMarketRows(rows, 'stock', 'asc').map((r) => r.name)).toEqual(['А', 'Б', 'В']);
  });
  it('sorts classes in their order, not alphabetically', () => {
    expect(sortMarketRows(rows, 'priceClass', 'desc').map((r) => r.name)).toEqual(['Б', 'А', 'В']);
  });
  it('keeps its state in the URL, defaults left out; a bad value falls back', () => {
    const today = '2026-11-23';
    const f = readMarketFilters(new URLSearchParams(), today);
    expect(f).toMatchObject({ from: '2026-08-25', to: today, view: 'projects', priceClass: null });
    expect(f.sort).toEqual({ key: 'absorption', dir: 'desc' });
    expect(writeMarketFilters(f, today).toString()).toBe('');
    const changed = {
      ...f,
      priceClass: 'premium' as const,
      view: 'developers' as const,
      sort: { key: 'stock' as const, dir: 'asc' as const },
    };
    const url = writeMarketFilters(changed, today);
    expect(url.toString()).toBe('class=premium&view=developers&sort=stock');
    expect(readMarketFilters(url, today)).toEqual(changed);
    expect(readMarketFilters(new URLSearchParams('class=luxury&sort=-volume&to=нет'), today)).toEqual(f);
  });
});
