import { EMPTY_PLACE, type MarketRow } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { compareSheet } from '../../compare/lib/compare-sheet';
import { marketSheet } from './market-sheet';

const row = (over: Partial<MarketRow>): MarketRow => ({
  id: 1,
  name: 'Липовая роща',
  developerId: 5,
  developerName: 'Пионер',
  projects: 1,
  date: '2026-11-20',
  stock: 10,
  new30: 1,
  gone30: 2,
  absorption: null,
  monthsOfSupply: 5,
  medianDaysOnMarket: 30,
  avgMeterPrice: 300_000,
  priceClass: 'comfort',
  indexChange: 1.5,
  ...over,
});
const butovo = {
  ...EMPTY_PLACE,
  region: 'Москва',
  city: 'Москва',
  district: 'Южное Бутово',
  latitude: 55.54,
  longitude: 37.51,
  stations: [{ name: 'Бунинская аллея', minutes: 12, mode: 'foot' as const, kind: 'metro' as const }],
};

describe('the exports carry the place (DESIGN §11.3)', () => {
  it('«Рынок»: a project row its place; a district row its city', () => {
    const projects = marketSheet([row({ place: butovo })], 'projects');
    const headers = projects.columns.map((c) => c.header);
    expect(headers.slice(0, 9)).toEqual([
      'Проект',
      'Застройщик',
      'Регион',
      'Город',
      'Район',
      'Адрес',
      'Станции',
      'Широта',
      'Долгота',
    ]);
    const values = projects.columns.slice(0, 9).map((c) => c.value(projects.rows[0]));
    expect(values).toEqual([
      'Липовая роща',
      'Пионер',
      'Москва',
      'Москва',
      'Южное Бутово',
      null,
      'Бунинская аллея, 12 мин пешком',
      55.54,
      37.51,
    ]);
    const districts = marketSheet(
      [row({ name: 'Южное Бутово', developerName: '', parent: 'Москва' })],
      'places',
      'district',
    );
    expect(districts.columns.slice(0, 3).map((c) => [c.header, c.value(districts.rows[0])])).toEqual([
      ['Район', 'Южное Бутово'],
      ['Проектов', 1],
      ['Город', 'Москва'],
    ]);
    // a region has no parent column
    const regions = marketSheet([row({ name: 'Москва', developerName: '' })], 'places', 'region');
    expect(regions.columns.map((c) => c.header)).not.toContain('Город');
  });

  it('«Сравнение»: each project’s column names its place', () => {
    const sheet = compareSheet({
      metric: 'stock',
      series: [
        {
          projectId: 1,
          projectName: 'Липовая роща',
          developerName: 'Пионер',
          place: butovo,
          points: [{ date: '2026-11-20', value: 10 }],
        },
      ],
    });
    expect(sheet.columns[1].header).toBe('Липовая роща (Пионер; Южное Бутово, Москва · м. Бунинская аллея)');
  });
});
