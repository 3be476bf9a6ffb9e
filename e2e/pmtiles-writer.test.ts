import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type RangeResponse, type Source, TileType } from 'pmtiles';
import { expect, it } from 'vitest';
import { boxFeature, writePmtiles } from './pmtiles-writer';

// The e2e's own basemap writer, read back by the pmtiles library the web app uses.

class BufferSource implements Source {
  constructor(private readonly bytes: Buffer) {}
  getKey() {
    return 'test';
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const slice = this.bytes.subarray(offset, offset + length);
    return { data: slice.buffer.slice(slice.byteOffset, slice.byteOffset + slice.byteLength) as ArrayBuffer };
  }
}

it('writes a PMTiles v3 archive the pmtiles reader opens: its header, and each tile’s layers and features', async () => {
  const archive = writePmtiles(
    { earth: [boxFeature('earth', 30, 55, 40, 60)], water: [boxFeature('lake', 36, 57, 38, 58)] },
    [30, 55, 40, 60],
    0,
    6,
  );
  const reader = new PMTiles(new BufferSource(archive));
  const header = await reader.getHeader();
  expect(header).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 6, tileType: TileType.Mvt });
  expect(header.minLon).toBeCloseTo(30);
  expect(header.maxLat).toBeCloseTo(60);
  for (const [z, lon, lat] of [
    [0, 35, 57],
    [4, 37, 57.5],
    [6, 31, 56],
  ] as const) {
    const x = Math.floor(((lon + 180) / 360) * 2 ** z);
    const r = (lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
    const tile = await reader.getZxy(z, x, y);
    expect(tile, `${z}/${x}/${y}`).toBeDefined();
    const vt = new VectorTile(new PbfReader(new Uint8Array(tile!.data)));
    expect(vt.layers.earth.length).toBe(1);
    expect(vt.layers.earth.feature(0).properties.kind).toBe('earth');
  }
  // the lake is in the tiles over it, not in those beside it
  expect(await reader.getZxy(6, 0, 0)).toBeUndefined();
  expect(JSON.stringify(await reader.getMetadata())).toContain('"water"');
});
