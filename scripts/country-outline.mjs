// Writes the map's outline of the countries around Russia (issue 46: the points on land when no basemap is
// configured) from Natural Earth's 1:110m countries as `world-atlas` carries them, coordinates to 0.01°.
// Run: node scripts/country-outline.mjs  (its output is committed; nothing is fetched).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);
const topology = JSON.parse(readFileSync(require.resolve('world-atlas/countries-110m.json'), 'utf8'));
const all = feature(topology, topology.objects.countries);
// Russia and the countries that border it or its seas, by their ISO 3166 numeric codes
const KEPT = new Set([
  '643',
  '112',
  '804',
  '398',
  '860',
  '417',
  '762',
  '795',
  '031',
  '268',
  '051',
  '233',
  '428',
  '440',
  '246',
  '578',
  '752',
  '616',
  '496',
  '156',
  '408',
  '410',
  '392',
  '498',
  '642',
  '100',
  '792',
  '364',
  '004',
  '586',
  '356',
]);
const round = (c) =>
  typeof c[0] === 'number' ? [Math.round(c[0] * 100) / 100, Math.round(c[1] * 100) / 100] : c.map(round);
// A ring that crosses the 180th meridian (Chukotka, Wrangel Island) comes as longitudes jumping from 180 to −180,
// an edge across the whole map (stripes over the Arctic): its western-hemisphere points are carried past 180 so
// the ring stays whole — MapLibre wraps coordinates beyond ±180 onto the next copy of the world.
const span = (ring) => ring.some((c, i) => i > 0 && Math.abs(c[0] - ring[i - 1][0]) > 180);
const unwrap = (ring) => (span(ring) ? ring.map(([x, y]) => [x < 0 ? x + 360 : x, y]) : ring);
const whole = (g) =>
  g.type === 'Polygon'
    ? g.coordinates.map(unwrap)
    : g.type === 'MultiPolygon'
      ? g.coordinates.map((p) => p.map(unwrap))
      : g.coordinates;
const features = all.features
  .filter((f) => KEPT.has(f.id))
  .map((f) => ({
    type: 'Feature',
    id: Number(f.id),
    properties: { name: f.properties.name, russia: f.id === '643' },
    geometry: {
      type: f.geometry.type,
      coordinates: whole({ type: f.geometry.type, coordinates: round(f.geometry.coordinates) }),
    },
  }));
const out = 'packages/web/src/features/market/map/countries.json';
writeFileSync(out, JSON.stringify({ type: 'FeatureCollection', features }));
console.log(`${out}: ${features.length} countries, ${readFileSync(out).length} bytes`);
