import { describe, expect, it } from 'vitest';
import countries from './countries.json';
import { outlineStyle, RUSSIA_VIEW } from './map-style';

// The outline basemap (issue 46): the countries drawn by MapLibre as they are on the globe.

type Ring = [number, number][];

const rings = (): { name: string; ring: Ring }[] =>
  countries.features.flatMap((f) => {
    const polygons = (
      f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates
    ) as Ring[][];
    return polygons.flatMap((p) => p.map((ring) => ({ name: f.properties.name, ring })));
  });

describe('the countries’ outline', () => {
  it('has no edge across the map: a ring over the 180th meridian stays whole (no stripes over the Arctic)', () => {
    const across = rings().filter(({ ring }) =>
      ring.some((c, i) => i > 0 && Math.abs(c[0] - ring[i - 1][0]) > 180),
    );
    expect(across.map((r) => r.name)).toEqual([]);
    // Chukotka is still there, east of the meridian, carried past 180 rather than cut off
    const east = Math.max(
      ...rings()
        .filter((r) => r.name === 'Russia')
        .flatMap((r) => r.ring.map((c) => c[0])),
    );
    expect(east).toBeGreaterThan(189);
    expect(east).toBeLessThan(191);
  });

  it('opens on the whole of Russia when no project is placed: Kaliningrad to Chukotka, the Caucasus to the Arctic', () => {
    const points = rings()
      .filter((r) => r.name === 'Russia')
      .flatMap((r) => r.ring);
    const [west, south, east, north] = RUSSIA_VIEW;
    const bounds = [
      Math.min(...points.map((c) => c[0])),
      Math.min(...points.map((c) => c[1])),
      Math.max(...points.map((c) => c[0])),
      Math.max(...points.map((c) => c[1])),
    ];
    // every point of the outline in view, and the view no more than 0.5° wider on any side
    expect(bounds[0]).toBeGreaterThanOrEqual(west);
    expect(bounds[1]).toBeGreaterThanOrEqual(south);
    expect(bounds[2]).toBeLessThanOrEqual(east);
    expect(bounds[3]).toBeLessThanOrEqual(north);
    for (const [i, v] of bounds.entries()) expect(Math.abs(v - RUSSIA_VIEW[i])).toBeLessThan(0.5);
  });

  it('closes every ring and keeps Russia apart from its neighbours', () => {
    for (const { ring } of rings()) expect(ring[0]).toEqual(ring[ring.length - 1]);
    const russia = countries.features.filter((f) => f.properties.russia);
    expect(russia.map((f) => f.properties.name)).toEqual(['Russia']);
    expect(countries.features.length).toBeGreaterThan(20);
    const style = outlineStyle(false);
    expect(Object.keys(style.sources)).toEqual(['countries']);
  });
});
