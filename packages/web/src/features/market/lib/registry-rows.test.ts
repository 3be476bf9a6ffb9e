import type { MarketRow, RegistryMarketProject } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { marketColumns } from './market-columns';
import { sortMarketRows } from './market-table';
import { isRegistryOnly, withRegistry } from './registry-rows';

const ours = (id: number, stock: number): MarketRow => ({
  id,
  name: `Проект ${id}`,
  developerId: 1,
  developerName: 'Д',
  projects: 1,
  date: '2026-11-26',
  stock,
  new30: 1,
  gone30: 2,
  absorption: 10,
  monthsOfSupply: 3,
  medianDaysOnMarket: 40,
  avgMeterPrice: 300_000,
  priceClass: 'comfort',
  indexChange: 1.5,
});

const registry = (over: Partial<RegistryMarketProject>): RegistryMarketProject => ({
  projectId: null,
  objId: 1,
  name: 'Только реестр',
  developerName: 'Р',
  objects: 1,
  apartments: 0,
  flats: 200,
  realised: 50,
  soldShare: 0.25,
  housingClass: 'Бизнес',
  ready: '2027-12-31',
  problem: false,
  address: 'г. Город',
  latitude: 55,
  longitude: 37,
  ...over,
});

describe('«Рынок» with the registry', () => {
  const reg = [
    registry({ projectId: 7, objId: 10, soldShare: 0.5 }),
    registry({ objId: 20 }),
    registry({ objId: 30, housingClass: 'Эконом', name: 'Эконом-проект' }),
  ];
  const rows = [ours(7, 5), ours(8, 9)];

  it('joins ours by id and adds every registry-only project, unless only lists are asked or a class excludes it', () => {
    const all = withRegistry(rows, reg, { listsOnly: false, to: '2026-11-26', priceClass: null });
    expect(all.map((r) => r.id)).toEqual([7, 8, -20, -30]);
    expect(all[0].registry?.soldShare).toBe(0.5);
    expect(all[1].registry).toBeUndefined();
    expect(all.filter(isRegistryOnly).map((r) => r.priceClass)).toEqual(['business', 'economy']);
    expect(
      withRegistry(rows, reg, { listsOnly: true, to: '2026-11-26', priceClass: null }).map((r) => r.id),
    ).toEqual([7, 8]);
    expect(
      withRegistry(rows, reg, { listsOnly: false, to: '2026-11-26', priceClass: 'business' }).map(
        (r) => r.id,
      ),
    ).toEqual([7, 8, -20]);
    expect(withRegistry(rows, undefined, { listsOnly: false, to: '2026-11-26', priceClass: null })).toBe(
      rows,
    );
  });

  it('a registry-only row has no figures of lists (empty cells, last in any sort) but its class and sold share', () => {
    const all = withRegistry(rows, reg, { listsOnly: false, to: '2026-11-26', priceClass: null });
    const columns = marketColumns('projects');
    const cell = (key: string, r: MarketRow) => columns.find((c) => c.key === key)!.value(r);
    const only = all[2];
    for (const key of ['stock', 'new30', 'gone30', 'absorption', 'avgMeterPrice', 'indexChange'])
      expect(cell(key, only)).toBeNull();
    expect(cell('priceClass', only)).toBe('Бизнес');
    expect(cell('registrySold', only)).toBe(25);
    expect(cell('registrySold', all[0])).toBe(50);
    expect(cell('registrySold', all[1])).toBeNull();
    expect(cell('stock', all[0])).toBe(5);
    for (const dir of ['asc', 'desc'] as const)
      expect(sortMarketRows(all, 'stock', dir).slice(2).every(isRegistryOnly)).toBe(true);
    expect(sortMarketRows(all, 'name', 'asc').map((r) => r.name)).toEqual([
      'Проект 7',
      'Проект 8',
      'Только реестр',
      'Эконом-проект',
    ]);
  });
});
