import geojsonvt from 'geojson-vt';
import { zxyToTileId } from 'pmtiles';
import vtpbf from 'vt-pbf';

/**
 * A small PMTiles v3 archive made by the test itself (issue 46: the e2e's basemap, nothing downloaded):
 * GeoJSON layers cut into Mapbox vector tiles (geojson-vt, vt-pbf) for zooms [minZoom, maxZoom] over the
 * layers' bounds, one root directory, no compression. The format: github.com/protomaps/PMTiles spec v3.
 */

type Feature = {
  type: 'Feature';
  properties: Record<string, string | number | boolean>;
  geometry: { type: string; coordinates: unknown };
};

const HEADER = 127;

/** A rectangle of the map as a GeoJSON polygon feature of `kind` (the tests' land, water and lakes). */
export const boxFeature = (kind: string, w: number, s: number, e: number, n: number): Feature => ({
  type: 'Feature',
  properties: { kind },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  },
});

function varint(out: number[], n: number) {
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
}

/** A directory as the spec lays it out: count, id deltas, run lengths, lengths, offsets (0: contiguous). */
function directory(entries: Entry[]): Buffer {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const _ of entries) varint(out, 1);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    varint(out, prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return Buffer.from(out);
}

const lonToX = (lon: number, z: number) => Math.floor(((lon + 180) / 360) * 2 ** z);
const latToY = (lat: number, z: number) => {
  const r = (lat * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
};

export function writePmtiles(
  layers: Record<string, Feature[]>,
  bounds: [number, number, number, number],
  minZoom = 0,
  maxZoom = 8,
): Buffer {
  const indexes = Object.entries(layers).map(
    ([name, features]) =>
      [
        name,
        new geojsonvt({ type: 'FeatureCollection', features } as never, { maxZoom, indexMaxZoom: maxZoom }),
      ] as const,
  );
  const tiles: { tileId: number; data: Buffer }[] = [];
  for (let z = minZoom; z <= maxZoom; z++)
    for (let x = lonToX(bounds[0], z); x <= lonToX(bounds[2], z); x++)
      for (let y = latToY(bounds[3], z); y <= latToY(bounds[1], z); y++) {
        const cut: Record<string, unknown> = {};
        for (const [name, index] of indexes) {
          const tile = index.getTile(z, x, y);
          if (tile) cut[name] = tile;
        }
        if (Object.keys(cut).length === 0) continue;
        tiles.push({
          tileId: zxyToTileId(z, x, y),
          data: Buffer.from(vtpbf.fromGeojsonVt(cut as never, { version: 2 })),
        });
      }
  tiles.sort((a, b) => a.tileId - b.tileId);
  const entries: Entry[] = [];
  let offset = 0;
  for (const t of tiles) {
    entries.push({ tileId: t.tileId, offset, length: t.data.length });
    offset += t.data.length;
  }
  const root = directory(entries);
  const metadata = Buffer.from(
    JSON.stringify({
      name: 'e2e',
      vector_layers: Object.keys(layers).map((id) => ({ id, fields: {} })),
      attribution: 'e2e',
    }),
  );
  const data = Buffer.concat(tiles.map((t) => t.data));
  const header = Buffer.alloc(HEADER);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (at: number, n: number) => header.writeBigUInt64LE(BigInt(n), at);
  const rootAt = HEADER;
  const metaAt = rootAt + root.length;
  const dataAt = metaAt + metadata.length;
  u64(8, rootAt);
  u64(16, root.length);
  u64(24, metaAt);
  u64(32, metadata.length);
  u64(40, dataAt + data.length);
  u64(48, 0);
  u64(56, dataAt);
  u64(64, data.length);
  u64(72, tiles.length);
  u64(80, tiles.length);
  u64(88, tiles.length);
  header.writeUInt8(1, 96); // clustered: the tiles in id order
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(1, 99); // tile type: MVT
  header.writeUInt8(minZoom, 100);
  header.writeUInt8(maxZoom, 101);
  const e7 = (at: number, v: number) => header.writeInt32LE(Math.round(v * 1e7), at);
  e7(102, bounds[0]);
  e7(106, bounds[1]);
  e7(110, bounds[2]);
  e7(114, bounds[3]);
  header.writeUInt8(Math.min(maxZoom, 4), 118);
  e7(119, (bounds[0] + bounds[2]) / 2);
  e7(123, (bounds[1] + bounds[3]) / 2);
  return Buffer.concat([header, root, metadata, data]);
}
