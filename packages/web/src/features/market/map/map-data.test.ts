import type { MarketMapResponse, MarketRow } from '@cena-metra/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapPoints, pointTooltip } from '../lib/map-option';
import {
  colourRange,
  fitNeeded,
  pointCollection,
  pointsBounds,
  pointsChange,
  rowsInView,
  visibleIds,
} from './map-data';

// «Рынок»'s map as MapLibre is given it (issue 46): the points' GeoJSON, the colour scale, the view's rows.

interface Point {
  id: number;
  lon: number;
  lat: number;
  avgMeterPrice: number | null;
  size?: number;
}

/** A map's answer in columns of these points (a negative id: a registry-only project). */
const answer = (points: Point[]): MarketMapResponse => ({
  id: points.map((p) => p.id),
  developerId: points.map((p) => (p.id < 0 ? 0 : 1)),
  name: points.map((p) => `Проект ${p.id}`),
  developer: points.map(() => 0),
  developers: ['Д'],
  place: points.map((p) => (p.id < 0 ? 0 : 1)),
  places: [
    { city: null, district: null, station: null },
    { city: 'Москва', district: 'Академический', station: 'Профсоюзная' },
  ],
  longitude: points.map((p) => p.lon),
  latitude: points.map((p) => p.lat),
  size: points.map((p) => p.size ?? 10),
  avgMeterPrice: points.map((p) => (p.id < 0 ? null : p.avgMeterPrice)),
  indexChange: points.map((p) => (p.id < 0 ? null : 1.5)),
  absorption: points.map((p) => (p.id < 0 ? null : 4)),
  objects: points.map((p) => (p.id < 0 ? 2 : null)),
  soldShare: points.map((p) => (p.id < 0 ? 0.4567 : null)),
  ready: points.map((p) => (p.id < 0 ? '2027-12-31' : null)),
  address: points.map((p) => (p.id < 0 ? 'Казань, ул. <Речная>' : null)),
  unplaced: [],
  registryOnly: points.filter((p) => p.id < 0).length,
});

const row = (id: number): MarketRow => ({
  id,
  name: `Проект ${id}`,
  developerId: 1,
  developerName: 'Д',
  projects: 1,
  date: '2026-11-26',
  stock: 10,
  new30: 0,
  gone30: 0,
  absorption: null,
  monthsOfSupply: null,
  medianDaysOnMarket: null,
  avgMeterPrice: 100,
  priceClass: null,
  indexChange: 0,
});

describe('the map’s data', () => {
  it('a point per placed project: its radius by stock, its figure, no figure when it has none', () => {
    const points = mapPoints(
      answer([
        { id: -7, lon: 49.1, lat: 55.8, avgMeterPrice: null, size: 400 },
        { id: 1, lon: 37.6, lat: 55.7, avgMeterPrice: 300_000, size: 400 },
        { id: 2, lon: 60.6, lat: 56.8, avgMeterPrice: null, size: 100 },
      ]),
    );
    const data = pointCollection(points, 'avgMeterPrice');
    expect(data.features.map((f) => f.properties)).toEqual([
      { id: -7, radius: 24, registry: true },
      { id: 1, radius: 24, registry: false, value: 300_000 },
      { id: 2, radius: 14, registry: false },
    ]);
    expect(data.features[1].geometry.coordinates).toEqual([37.6, 55.7]);
    expect(colourRange(points, 'avgMeterPrice')).toEqual([300_000, 300_001]);
    expect(colourRange(points, 'indexChange')).toEqual([1.5, 2.5]);
    expect(colourRange([], 'avgMeterPrice')).toEqual([0, 1]);
  });

  it('a tooltip of ours: its place and figures; of a registry-only project: the registry’s, escaped', () => {
    const map = answer([
      { id: -7, lon: 49.1, lat: 55.8, avgMeterPrice: null, size: 60 },
      { id: 1, lon: 37.6, lat: 55.7, avgMeterPrice: 300_000, size: 400 },
    ]);
    const ours = pointTooltip(map, 1);
    expect(ours).toContain('<b>Проект 1</b> · Д');
    expect(ours).toContain('Москва, Академический · м. Профсоюзная');
    expect(ours).toContain('В продаже: 400');
    expect(ours).toContain('Ср. цена м²: 300');
    expect(ours).toContain('Индекс за период: +1,5');
    const registry = pointTooltip(map, 0);
    expect(registry).toContain('Только в реестре: прайс-листа нет');
    expect(registry).toContain('Казань, ул. &#60;Речная&#62;');
    expect(registry).toContain('Объектов: 2, квартир: 60');
    expect(registry).toContain('Продано по реестру: 45,67');
    expect(registry).toContain('Ввод: 31.12.2027');
  });

  it('the rows in a view are those whose points fall in it — across the antimeridian too — and all when off', () => {
    const coordinate = fc.record({
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
      lat: fc.double({ min: -80, max: 80, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(coordinate, { minLength: 1, maxLength: 30 }),
        coordinate,
        coordinate,
        (places, a, b) => {
          const rows = places.map((_, i) => row(i + 1));
          const points = mapPoints(
            answer(places.map((p, i) => ({ id: i + 1, lon: p.lon, lat: p.lat, avgMeterPrice: 100 }))),
          );
          const [south, north] = [Math.min(a.lat, b.lat), Math.max(a.lat, b.lat)];
          // west > east: the view crosses the antimeridian
          const view = [a.lon, south, b.lon, north] as [number, number, number, number];
          const seen = visibleIds(points, view);
          for (const p of places.map((p, i) => ({ ...p, id: i + 1 }))) {
            const lonIn =
              a.lon <= b.lon ? p.lon >= a.lon && p.lon <= b.lon : p.lon >= a.lon || p.lon <= b.lon;
            expect(seen.has(p.id)).toBe(lonIn && p.lat >= south && p.lat <= north);
          }
          expect(rowsInView(rows, seen).map((r) => r.id)).toEqual([...seen].sort((x, y) => x - y));
          expect(rowsInView(rows, null)).toBe(rows);
          // the points' bounds hold every point
          const [w, s, e, n] = pointsBounds(points)!;
          for (const p of places) expect(p.lon >= w && p.lon <= e && p.lat >= s && p.lat <= n).toBe(true);
        },
      ),
      { numRuns: 200, seed: 46 },
    );
    expect(pointsBounds([])).toBeNull();
  });

  it('moves to new points unless the view holds them all at about their own zoom', () => {
    const russia: [number, number, number, number] = [27, 41, 180, 78];
    // the whole market's points inside the country's view, fitted less than a level closer: kept
    expect(fitNeeded(russia, 2, [30, 43, 150, 70], 2.6)).toBe(false);
    // a city's points: fitted several levels closer — moved
    expect(fitNeeded(russia, 2, [37.3, 55.5, 37.9, 56], 9)).toBe(true);
    // a point outside the view (Kaliningrad west of its edge) — moved, at whatever zoom
    expect(fitNeeded(russia, 2, [20, 43, 150, 70], 2)).toBe(true);
    expect(fitNeeded(russia, 2, [30, 40, 150, 70], 2)).toBe(true);
    expect(fitNeeded(russia, 2, [30, 43, 181, 70], 2)).toBe(true);
    expect(fitNeeded(russia, 2, [30, 43, 150, 79], 2)).toBe(true);
    // exactly one level closer: moved
    expect(fitNeeded(russia, 2, [30, 43, 150, 70], 3)).toBe(true);
  });
});

describe('the map given its points once (issue 46: the page’s other answers do not cluster them again)', () => {
  const points = mapPoints(answer([{ id: 1, lon: 37.6, lat: 55.7, avgMeterPrice: 300_000 }]));
  const data = pointCollection(points, 'avgMeterPrice');
  const range = colourRange(points, 'avgMeterPrice');
  it('the first data are given; the same data again are not — a frame only; another set or range is', () => {
    expect(pointsChange(null, { data, range })).toEqual({ data: true, paint: true, frame: false });
    expect(pointsChange({ data, range }, { data, range: [range[0], range[1]] })).toEqual({
      data: false,
      paint: false,
      frame: true,
    });
    const recoloured = pointCollection(points, 'indexChange');
    expect(pointsChange({ data, range }, { data: recoloured, range })).toMatchObject({
      data: true,
      frame: false,
    });
    expect(pointsChange({ data, range }, { data, range: [range[0], range[1] + 1] })).toEqual({
      data: false,
      paint: true,
      frame: false,
    });
  });
});
