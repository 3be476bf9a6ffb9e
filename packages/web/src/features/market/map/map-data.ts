import type { MarketRow } from '@cena-metra/contract';
import { circleSize, type MapColour, type MapPoint } from '../lib/map-option';

/**
 * «Рынок»'s map as MapLibre draws it (issue 46): the projects as GeoJSON points, each with its circle's
 * radius (its stock; a registry-only project's flats), the figure its colour shows (none for a registry-only
 * project: grey) and whether it has a dashboard (its name is the tooltip's, from the answer: the worker is sent
 * what it draws and nothing more — the country's 7,000 points are cloned to it); the colour scale's ends; the
 * projects in a view.
 */

export interface PointProperties {
  id: number;
  /** px */
  radius: number;
  /** the coloured figure; absent: grey */
  value?: number;
  registry: boolean;
}

export interface PointCollection {
  type: 'FeatureCollection';
  features: {
    type: 'Feature';
    id: number;
    geometry: { type: 'Point'; coordinates: [number, number] };
    properties: PointProperties;
  }[];
}

/** The points as a GeoJSON source, in their order (the answer's: registry-only projects first, drawn under ours). */
export function pointCollection(points: readonly MapPoint[], colour: MapColour): PointCollection {
  let largest = 0;
  for (const p of points) largest = Math.max(largest, p.size);
  return {
    type: 'FeatureCollection',
    features: points.map((p, i) => {
      const value = p.registry ? null : p[colour];
      return {
        type: 'Feature',
        // a feature's id: its place in the list (registry-only rows have negative ids)
        id: i,
        geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] },
        properties: {
          id: p.id,
          radius: circleSize(p.size, largest) / 2,
          registry: p.registry,
          ...(value !== null && { value }),
        },
      };
    }),
  };
}

/** The colour scale's ends over the points' figures ([0, 1] when none has one). */
export function colourRange(points: readonly MapPoint[], colour: MapColour): [number, number] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    const v = p.registry ? null : p[colour];
    if (v === null) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  if (min > max) return [0, 1];
  return [min, max > min ? max : min + 1];
}

/** The scale's colours, low to high, and the grey of a project with no figure. */
export const SCALE = ['#22c55e', '#eab308', '#ef4444'] as const;
export const GREY = '#94a3b8';

/** A view's bounds: west, south, east, north (degrees). */
export type Bounds = [number, number, number, number];

/** The ids of the rows drawn within a view (a bounds across the antimeridian has west > east). */
export function visibleIds(points: readonly MapPoint[], [west, south, east, north]: Bounds): Set<number> {
  const inside = (lon: number) => (west <= east ? lon >= west && lon <= east : lon >= west || lon <= east);
  return new Set(
    points.filter((p) => p.latitude >= south && p.latitude <= north && inside(p.longitude)).map((p) => p.id),
  );
}

/** The bounds around the points, with a margin (null: no point). */
export function pointsBounds(points: readonly MapPoint[]): Bounds | null {
  if (points.length === 0) return null;
  let [w, s, e, n] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -Infinity, -Infinity];
  for (const p of points) {
    w = Math.min(w, p.longitude);
    e = Math.max(e, p.longitude);
    s = Math.min(s, p.latitude);
    n = Math.max(n, p.latitude);
  }
  const pad = (a: number, b: number) => Math.max(0.05, (b - a) * 0.08);
  return [w - pad(w, e), s - pad(s, n), e + pad(w, e), n + pad(s, n)];
}

/**
 * Whether the map should move to new points: not when its view already holds them all at about the zoom
 * they would be fitted to (less than one level closer) — the whole market's points drawn where the empty
 * map stood, without the basemap's tiles made again at another zoom.
 */
export function fitNeeded(view: Bounds, zoom: number, target: Bounds, fittedZoom: number): boolean {
  const holds = view[0] <= target[0] && view[1] <= target[1] && view[2] >= target[2] && view[3] >= target[3];
  return !holds || fittedZoom - zoom >= 1;
}

/** Keeps the rows a view shows: all of them when `visible` is null (the filter off). */
export const rowsInView = <R extends Pick<MarketRow, 'id'>>(rows: R[], visible: Set<number> | null) =>
  visible ? rows.filter((r) => visible.has(r.id)) : rows;

/** What the map's points source and their paint hold. */
export interface GivenPoints {
  data: PointCollection;
  range: [number, number];
}

/**
 * What a render of the page asks of the map: the data set again only when it is another one (a set is cloned
 * to MapLibre's worker and clustered there again — 0.3–0.5 s for the country's 7,000 points, once drawn for
 * nothing each time the page's other answers came), the colour's paint only when its range moved, else a
 * frame (so the map's idle follows and says it is drawn).
 */
export function pointsChange(
  held: GivenPoints | null,
  next: GivenPoints,
): { data: boolean; paint: boolean; frame: boolean } {
  const data = held?.data !== next.data;
  const paint = held?.range[0] !== next.range[0] || held?.range[1] !== next.range[1];
  return { data, paint, frame: !data && !paint };
}
