import type { MarketRow } from '@cena-metra/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapPoints } from '../lib/map-option';
import { colourRange, fitNeeded, pointCollection, pointsBounds, rowsInView, visibleIds } from './map-data';

// «Рынок»'s map as MapLibre is given it (issue 46): the points' GeoJSON, the colour scale, the view's rows.

const row = (id: number, lon: number, lat: number, avgMeterPrice: number | null, stock = 10): MarketRow => ({
  id,
  name: `Проект ${id}`,
  developerId: 1,
  developerName: 'Д',
  projects: 1,
  date: '2026-11-26',
  stock,
  new30: 0,
  gone30: 0,
  absorption: null,
  monthsOfSupply: null,
  medianDaysOnMarket: null,
  avgMeterPrice,
  priceClass: null,
  indexChange: 0,
  place: {
    region: null,
    city: null,
    district: null,
    address: null,
    latitude: lat,
    longitude: lon,
    stations: [],
  },
});

describe('the map’s data', () => {
  it('a point per placed project: its radius by stock, its figure, no figure when it has none', () => {
    const { points } = mapPoints([row(1, 37.6, 55.7, 300_000, 400), row(2, 60.6, 56.8, null, 100)]);
    const data = pointCollection(points, 'avgMeterPrice');
    expect(data.features.map((f) => f.properties)).toEqual([
      { id: 1, name: 'Проект 1', radius: 24, registry: false, value: 300_000 },
      { id: 2, name: 'Проект 2', radius: 14, registry: false },
    ]);
    expect(data.features[0].geometry.coordinates).toEqual([37.6, 55.7]);
    expect(colourRange(points, 'avgMeterPrice')).toEqual([300_000, 300_001]);
    expect(colourRange([], 'avgMeterPrice')).toEqual([0, 1]);
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
          const rows = places.map((p, i) => row(i + 1, p.lon, p.lat, 100));
          const { points } = mapPoints(rows);
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
