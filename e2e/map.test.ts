import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchChromium, type Product, signInDemo, startProduct } from './harness';
import { boxFeature, writePmtiles } from './pmtiles-writer';

// «Рынок»'s map on a real basemap (issue 46): a PMTiles archive the test writes — land, a lake and a road
// around the demo's cities — served by our server and drawn by MapLibre in headless Chromium (software
// WebGL); points clustered, a cluster split by a click, a point's click, the table narrowed to the view;
// no request to another origin; an operator's style read from its origin alone.

const dir = mkdtempSync(join(tmpdir(), 'cena-map-'));
const ARCHIVE = join(dir, 'region.pmtiles');
/** the lake: between Moscow and Yekaterinburg, where no project is */
const LAKE = [44, 57, 48, 58.5] as const;
writeFileSync(
  ARCHIVE,
  writePmtiles(
    {
      earth: [boxFeature('earth', 20, 45, 70, 66)],
      water: [boxFeature('lake', ...LAKE)],
      roads: [
        {
          type: 'Feature',
          properties: { kind: 'highway', name: 'М-7' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [37.6, 55.75],
              [49.1, 55.8],
              [60.6, 56.8],
            ],
          },
        },
      ],
    },
    [20, 45, 70, 66],
    0,
    7,
  ),
);
/** Protomaps' light colours of land and water (the style the page draws our archive with) */
const EARTH = [0xe2, 0xdf, 0xda];
const WATER = [0x80, 0xde, 0xea];

const map = '[data-testid=market-map]';
const data = (page: Page, key: string) =>
  page.$eval(map, (el, k) => (el as HTMLElement).dataset[k] ?? '', key);
const json = async (page: Page, key: string) => JSON.parse((await data(page, key)) || '[]') as number[][];

/** The pixel of a longitude and latitude in the map's view (Web Mercator, north up) from its bounds. */
async function pixelOf(page: Page, lon: number, lat: number) {
  const [w, s, e, n] = (await data(page, 'bounds')).split(',').map(Number);
  const box = (await (await page.$(map))!.boundingBox())!;
  const y = (φ: number) => Math.log(Math.tan(Math.PI / 4 + (φ * Math.PI) / 360));
  return {
    x: Math.round(((lon - w) / (e - w)) * box.width),
    y: Math.round(((y(n) - y(lat)) / (y(n) - y(s))) * box.height),
    box,
  };
}

/** The colour of a pixel of the map's element as drawn (a screenshot of it). */
async function colourAt(page: Page, x: number, y: number): Promise<number[]> {
  const png = await page.locator(map).screenshot();
  return page.evaluate(
    async ({ b64, x, y }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
    },
    { b64: png.toString('base64'), x, y },
  );
}
const near = (a: number[], b: number[], tolerance = 12) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

let browser: Browser;
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

/** the first product's data dir, its demo made: the second starts on it in seconds */
let kept: string | undefined;

describe('«Рынок»’s map on our own PMTiles basemap', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct({ MAP_PMTILES: ARCHIVE });
  }, 120_000);
  afterAll(async () => {
    kept = product?.dataDir;
    await product?.stop(true);
  });

  it('draws the basemap and the points, clusters that split when clicked, a click that opens a project, the table narrowed to the view — and asks nothing of another origin', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(product.url) && !/^(data|blob):/.test(url)) elsewhere.push(url);
    });
    await signInDemo(page, product.url);
    await page.goto(`${product.url}/market`);
    await page.waitForSelector(`${map}[data-basemap=pmtiles] canvas`);
    await page.$eval(map, (el) => el.scrollIntoView({ block: 'center' }));
    await expect.poll(() => data(page, 'points'), { timeout: 30_000 }).not.toBe('');
    const points = Number(await data(page, 'points'));
    expect(points).toBeGreaterThan(20);
    // the demo's three cities, each a cluster at the view of the whole country part
    await expect
      .poll(async () => Number(await data(page, 'clusters')), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await page.waitForTimeout(500);
    await page.screenshot({
      path: join(ARTIFACTS, 'market-map-pmtiles.png'),
      fullPage: false,
      clip: (await (await page.$(map))!.boundingBox())!,
    });
    // the basemap by its pixels: the lake's water, the land beside it
    const lake = await pixelOf(page, (LAKE[0] + LAKE[2]) / 2, (LAKE[1] + LAKE[3]) / 2);
    expect(near(await colourAt(page, lake.x, lake.y), WATER), 'the lake').toBe(true);
    const land = await pixelOf(page, 41, 58.8);
    expect(near(await colourAt(page, land.x, land.y), EARTH), 'the land').toBe(true);
    // a cluster: its circle is drawn where it says, and a click splits it (zoomed in, more drawn apart)
    const [[count, cx, cy]] = await json(page, 'clusterPixels');
    expect(count).toBeGreaterThan(1);
    expect(near(await colourAt(page, cx, cy), EARTH)).toBe(false);
    // its count written on it: the counts' canvas says so and has the text's pixels there
    const counts = '[data-testid=market-map-counts]';
    await expect
      .poll(async () =>
        (
          JSON.parse((await page.getAttribute(counts, 'data-labels')) ?? '[]') as [string, number, number][]
        ).some(([text, x, y]) => text === String(count) && Math.abs(x - cx) <= 2 && Math.abs(y - cy) <= 2),
      )
      .toBe(true);
    const inked = await page.$eval(
      counts,
      (el, [x, y]) => {
        const c = el as HTMLCanvasElement;
        const r = c.width / c.clientWidth;
        const px = c
          .getContext('2d')!
          .getImageData(Math.round((x - 8) * r), Math.round((y - 8) * r), 16 * r, 16 * r);
        let n = 0;
        for (let i = 3; i < px.data.length; i += 4) if (px.data[i] > 128) n++;
        return n;
      },
      [cx, cy],
    );
    expect(inked).toBeGreaterThan(5);
    const zoom = Number(await data(page, 'zoom'));
    await page.mouse.click(lake.box.x + cx, lake.box.y + cy);
    await expect.poll(async () => Number(await data(page, 'zoom'))).toBeGreaterThan(zoom);
    await expect.poll(async () => (await json(page, 'pixels')).length).toBeGreaterThan(0);
    // «только видимые»: the table holds the projects in view, fewer than all
    const rows = () => page.$$eval('[data-testid=market-row]', (trs) => trs.length);
    const all = await rows();
    await page.click('[data-testid=market-map-visible]');
    await expect.poll(rows).toBeLessThan(all);
    expect(await rows()).toBeGreaterThan(0);
    await page.click('[data-testid=market-map-visible]');
    await expect.poll(rows).toBe(all);
    // PNG with its legend: taller than the map
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[aria-label="Меню карты"]').then(() => page.click('[data-testid=market-map-png]')),
    ]);
    const png = readFileSync((await download.path())!);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(20)).toBeGreaterThan(Math.round(lake.box.height));
    // a point drawn apart: a click opens its project's dashboard
    const [id, x, y] = (await json(page, 'pixels')).at(-1)!;
    const box = (await (await page.$(map))!.boundingBox())!;
    await page.mouse.click(box.x + x, box.y + y);
    await page.waitForURL(new RegExp(`project=${id}`));
    expect(elsewhere).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('«Рынок»’s map on an operator’s style', () => {
  let product: Product;
  let style: http.Server;
  const asked: string[] = [];
  beforeAll(async () => {
    // the operator's style on another origin (another port): a sea-green background, nothing else
    style = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(
        JSON.stringify({
          version: 8,
          sources: {},
          layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#2e8b57' } }],
        }),
      );
    });
    await new Promise<void>((done) => style.listen(0, '127.0.0.1', done));
    const { port } = style.address() as { port: number };
    product = await startProduct({ MAP_STYLE_URL: `http://127.0.0.1:${port}/style.json` }, kept);
  }, 120_000);
  afterAll(async () => {
    await product?.stop();
    style?.close();
  });

  it('reads the style from its origin, and asks no other', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const origins = new Set<string>();
    page.on('request', (r) => {
      if (!/^(data|blob):/.test(r.url())) origins.add(new URL(r.url()).origin);
    });
    await signInDemo(page, product.url);
    await page.goto(`${product.url}/market`);
    await page.waitForSelector(`${map}[data-basemap=style] canvas`);
    await page.$eval(map, (el) => el.scrollIntoView({ block: 'center' }));
    await expect
      .poll(async () => Number(await data(page, 'points')), { timeout: 30_000 })
      .toBeGreaterThan(20);
    const { port } = style.address() as { port: number };
    expect(asked).toContain('/style.json');
    expect([...origins].sort()).toEqual([new URL(product.url).origin, `http://127.0.0.1:${port}`].sort());
    const land = await pixelOf(page, 41, 58.8);
    expect(near(await colourAt(page, land.x, land.y), [0x2e, 0x8b, 0x57])).toBe(true);
    await page.close();
  }, 120_000);
});
