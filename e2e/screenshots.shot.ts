/**
 * `npm run screenshots`: the README's pictures of the product, made as the e2e tests see it — the built
 * server on a fresh data dir with the demo market, the system Chromium, the demo account — written to
 * docs/img (dashboard, «Рынок», «Шахматка»). Not part of `npm test`: run it after a change to these pages.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { launchChromium, ROOT, signInDemo, startProduct } from './harness';

const OUT = join(ROOT, 'docs/img');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

it('makes the README screenshots: dashboard, «Рынок», «Шахматка»', async () => {
  mkdirSync(OUT, { recursive: true });
  const [product, browser] = await Promise.all([startProduct(), launchChromium()]);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signInDemo(page, product.url);
    // the dashboard with its charts drawn (ECharts animates: the last frame is what a person sees)
    await page.waitForSelector('[data-testid=charts][aria-busy=false]', { timeout: 60_000 });
    // the first screen (below it, charts are drawn when scrolled to)
    await page.waitForSelector('[data-testid=chart-all-rooms] .echart[data-series]', { timeout: 60_000 });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(OUT, 'dashboard.png') });
    await page.goto(`${product.url}/market`);
    await page.waitForSelector('[data-testid=market-row]', { timeout: 60_000 });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(OUT, 'market.png') });
    await page.goto(`${product.url}/`);
    await page.click('[data-testid=chess-link]');
    await page.waitForSelector('[data-testid=chess-board] g[data-flat]', { timeout: 60_000 });
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(OUT, 'chess.png') });
  } finally {
    await browser.close();
    await product.stop();
  }
  for (const name of ['dashboard', 'market', 'chess']) {
    const png = readFileSync(join(OUT, `${name}.png`));
    expect(png.subarray(0, 4)).toEqual(PNG);
    expect(png.length).toBeGreaterThan(30_000);
  }
}, 240_000);
