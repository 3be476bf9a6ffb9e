import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, E2E_BOT_TOKEN, launchChromium, type Product, signInDemo, startProduct } from './harness';

let product: Product;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [product, browser] = await Promise.all([startProduct(), launchChromium()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** Uncaught errors in any page, and renders that fell into React Router's error boundary. */
const pageErrors: string[] = [];

/** Every test's browser context: its pages report uncaught errors, and a test with any fails. */
async function newContext(options?: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.on('page', (p) => {
    p.on('pageerror', (e) => pageErrors.push(`${p.url()}: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error' && /ErrorBoundary|caught the following error/.test(m.text()))
        pageErrors.push(`${p.url()}: ${m.text().split('\n')[0]}`);
    });
  });
  return context;
}

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

/** The demo account's session, signed in through the API (as the login page would). */
/** A flat on sale with a discount over the year (the demo has many): its id. */
async function discountedFlat(): Promise<number> {
  const session = await demoSession();
  const res = await fetch(`${product.url}/api/discount`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ period: 'YEAR', limit: 1 }),
  });
  return (await res.json()).rows[0].flatId;
}

async function demoSession(): Promise<{ token: string; username: string }> {
  const login = await fetch(`${product.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo' }),
  });
  return login.json();
}

/** A fresh browser context (nothing cached) holding the demo's session, as after a login some other day. */
async function freshSignedInContext(): Promise<BrowserContext> {
  const session = await demoSession();
  const fresh = await newContext({ viewport: { width: 1440, height: 900 } });
  await fresh.addInitScript((s) => {
    // about:blank has no storage of its own
    if (location.protocol.startsWith('http')) localStorage.setItem('user', JSON.stringify(s));
  }, session);
  return fresh;
}

async function signedIn(context: BrowserContext, path = '/'): Promise<Page> {
  const page = await context.newPage();
  await signInDemo(page, product.url);
  if (path !== '/') await page.goto(`${product.url}${path}`);
  return page;
}

/**
 * Scrolls the dashboard through a screen at a time, as a reader does, waiting at each screen for its
 * charts to be drawn and its blocks loaded (DESIGN §12.2: below the fold nothing is drawn or asked for until
 * it comes into view); then back to the top.
 */
async function seeAll(page: Page) {
  await page.waitForSelector('[data-testid=charts]', { timeout: 30_000 });
  const settled = () =>
    page.waitForFunction(
      () => {
        const inView = (e: Element) => {
          const r = e.getBoundingClientRect();
          return r.bottom > 0 && r.top < innerHeight;
        };
        return (
          ![...document.querySelectorAll('.echart[data-pending], [aria-busy=true]')].some(inView) &&
          [...document.querySelectorAll('.echart')].filter(inView).every((b) => b.querySelector('canvas'))
        );
      },
      undefined,
      { timeout: 30_000 },
    );
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled();
  while (
    await page.evaluate(() => {
      const before = window.scrollY;
      window.scrollBy(0, window.innerHeight);
      return window.scrollY > before;
    })
  )
    await settled();
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled();
}

/** Waits for the nine charts (the page scrolled through) and returns what each drew: series and date span. */
async function chartsDrawn(page: Page) {
  await seeAll(page);
  return page.$$eval('[data-testid=charts] [data-testid^=chart-] .echart', (boxes) =>
    boxes.map((b) => ({
      series: Number((b as HTMLElement).dataset.series),
      first: (b as HTMLElement).dataset.first,
      last: (b as HTMLElement).dataset.last,
      canvas: b.querySelector('canvas') !== null,
    })),
  );
}

async function expectTitle(page: Page, title: string) {
  await page.waitForFunction((t) => document.title === t, title, { timeout: 5_000 }).catch(() => {});
  expect(await page.title()).toBe(title);
}

const tableRows = (page: Page) =>
  page.$$eval('[data-testid=summary-table] tbody tr', (rows) => rows.map((r) => r.textContent));

describe('guards and session', () => {
  it('sends a guest to /login remembering the wanted URL, refuses a wrong password, then signs in', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${product.url}/tables`);
    await page.waitForURL(/\/login\?redirect=%2Ftables$/);
    await expectTitle(page, 'Вход — Цена метра');
    await page.fill('input[name=username]', 'demo');
    await page.fill('input[name=password]', 'wrong');
    await page.click('button[type=submit]');
    expect(await page.textContent('[data-testid=login-error]')).toBe('Неверный логин или пароль');
    await page.fill('input[name=password]', 'demo');
    await page.click('button[type=submit]');
    await page.waitForURL(`${product.url}/tables`);
    await expectTitle(page, 'Tables — Цена метра');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ username: 'demo' });
    expect(typeof stored.token).toBe('string');
    // a signed-in user does not see /login
    await page.goto(`${product.url}/login`);
    await page.waitForURL(`${product.url}/`);
    await context.close();
  });

  it('signs out on a 401 from the API and returns to /login with the wanted URL', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${product.url}/error`);
    await page.evaluate(() =>
      localStorage.setItem('user', JSON.stringify({ username: 'demo', token: 'revoked-token' })),
    );
    await page.goto(`${product.url}/?type=FACING`);
    await page.waitForURL(/\/login\?redirect=%2F%3Ftype%3DFACING$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await context.close();
  });

  it('logs out: the session is cleared and / asks for a login again', async () => {
    const context = await newContext();
    const page = await signedIn(context);
    await page.click('[data-testid=logout]');
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page.goto(`${product.url}/`);
    await page.waitForURL(/\/login\?redirect=%2F$/);
    await context.close();
  });
});

describe('dashboard', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    page = await signedIn(context);
  });
  afterAll(() => context.close());

  it('shows nine charts with drawn series and the summary table, titled Dashboard, under a CSP of self', async () => {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const response = await page.goto(`${product.url}/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    const charts = await chartsDrawn(page);
    expect(charts).toHaveLength(9);
    for (const c of charts) {
      expect(c.canvas).toBe(true);
      expect(c.series).toBeGreaterThan(0);
    }
    // chart 1 by rooms: min, avg, max and at least one rooms series
    expect(charts[0].series).toBeGreaterThan(3);
    expect((await tableRows(page)).length).toBeGreaterThan(0);
    await expectTitle(page, 'Dashboard — Цена метра');
    expect(await page.textContent('[data-testid=summary-table]')).toMatch(/Страница 1 из \d+/);
    expect(await page.getAttribute('[data-testid=credits]', 'href')).toBe('https://t.me/cena_metra');
    // default developer id 5 is selected, with its first project
    expect(await page.inputValue('[data-testid=developer-select]')).toBe('5');
    expect(violations).toEqual([]);
  });

  it('«Реестр» of the default project: its objects, a completion moved twice, registered sales by month (DESIGN §12.3)', async () => {
    await page.goto(`${product.url}/`);
    const panel = page.locator('[data-testid=registry-panel]');
    // asked when scrolled to, as the panels below the charts are
    await page.locator('text=наш.дом.рф').scrollIntoViewIfNeeded();
    await panel.waitFor();
    const rows = page.locator('[data-testid=registry-objects] tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    expect(await rows.first().innerText()).toMatch(/корпус \d/);
    const shifts = await page.locator('[data-testid=registry-shifts] li').allInnerTexts();
    expect(
      shifts.filter((t) => t.includes('ввод в эксплуатацию')).map((t) => /\((.+)\)$/.exec(t)?.[1]),
    ).toEqual(['+6 мес.', '+3 мес.']);
    expect(await rows.first().innerText()).toContain('+9 мес.');
    const sales = await page.locator('[data-testid=registry-sales] tbody tr').allInnerTexts();
    expect(sales.length).toBeGreaterThan(3);
    expect(sales[0]).toMatch(/^[а-я]+ \d{4}/);
    expect(await page.isEnabled('[data-testid=registry-export-xlsx]')).toBe(true);
    await panel.screenshot({ path: 'e2e/artifacts/registry-panel.png' });
  });

  it('«Реестр»: an admin unlinks an object by hand, links it back by its number, then gives it back to the rule', async () => {
    await page.goto(`${product.url}/`);
    await page.locator('text=наш.дом.рф').scrollIntoViewIfNeeded();
    const rows = page.locator('[data-testid=registry-objects] tbody tr');
    await rows.first().waitFor();
    const before = await rows.count();
    const objId = (await rows.first().locator('td').first().innerText()).trim();
    expect(await rows.first().innerText()).toContain('по правилу');
    await rows.first().locator('[data-testid=registry-unlink]').click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=registry-objects] tbody tr').length === n - 1,
      before,
    );
    // unlinked, it is offered back among the registry's objects without a project (the same name)
    const offered = page.locator(`[data-testid=registry-candidates] li[data-obj="${objId}"]`);
    await offered.waitFor();
    expect(await offered.innerText()).toContain('то же название');
    await page
      .locator('[data-testid=registry-candidates]')
      .screenshot({ path: join(ARTIFACTS, 'registry-candidates.png') });
    // a number that is not one is refused in the form, naming what is wanted
    await page.fill('[data-testid=registry-link-form] input', 'сорок');
    await page.click('[data-testid=registry-link-form] button[type=submit]');
    expect(await page.textContent('[data-testid=registry-link-form] [role=alert]')).toContain(
      'целое положительное',
    );
    await page.fill('[data-testid=registry-link-form] input', objId);
    await page.click('[data-testid=registry-link-form] button[type=submit]');
    const row = rows.filter({ hasText: objId });
    await row.waitFor();
    expect(await row.innerText()).toContain('вручную');
    await offered.waitFor({ state: 'detached' });
    await row.locator('[data-testid=registry-back]').click();
    await page.waitForFunction(
      (id) =>
        [...document.querySelectorAll('[data-testid=registry-objects] tbody tr')].some(
          (r) => r.textContent?.includes(id) && r.textContent.includes('по правилу'),
        ),
      objId,
    );
    expect(await rows.count()).toBe(before);
  });

  it('the project’s class: the registry’s, set by hand by an admin (shown with its origin on «Рынок»), given back', async () => {
    await page.goto(`${product.url}/`);
    await page.locator('text=наш.дом.рф').scrollIntoViewIfNeeded();
    const line = page.locator('[data-testid=project-class]');
    await line.waitFor();
    expect(await line.getAttribute('data-origin')).toBe('registry');
    expect(await line.innerText()).toMatch(/по реестру: (Комфорт|Бизнес)/);
    const project = await page.inputValue('[data-testid=project-select]');
    expect(project).toMatch(/^\d+$/);
    await page.selectOption('[data-testid=project-class-edit]', 'premium');
    await page.waitForSelector('[data-testid=project-class][data-origin=hand]');
    expect(await page.textContent('[data-testid=project-class-value]')).toBe('Премиум');
    await page.screenshot({ path: join(ARTIFACTS, 'project-class.png') });
    // «Рынок»: the class with its origin, the class filter by it
    await page.goto(`${product.url}/market?class=premium`);
    const rows = page.locator('[data-testid=market-row]');
    await rows.first().waitFor();
    const mine = rows.filter({ has: page.locator(`a[href*="project=${project}"]`) });
    await mine.waitFor();
    expect(await mine.locator('[data-testid=class-origin]').textContent()).toBe('вручную');
    await page.goto(`${product.url}/`);
    await page.locator('text=наш.дом.рф').scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-testid=project-class][data-origin=hand]');
    await page.selectOption('[data-testid=project-class-edit]', '');
    await page.waitForSelector('[data-testid=project-class][data-origin=registry]');
  });

  it("a browser whose day is behind the lists' (west of Moscow, after the lists' midnight) still ends at the last list", async () => {
    const { token } = await demoSession();
    const [project] = (await (
      await fetch(`${product.url}/api/projects?developerId=5`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { id: number; lastSnapshotDate: string }[];
    const last = project.lastSnapshotDate;
    const behind = await newContext({ viewport: { width: 1440, height: 900 } });
    // the browser's clock two days before the project's last list: its today is earlier than that list's day
    await behind.clock.setFixedTime(new Date(Date.parse(`${last}T12:00:00Z`) - 2 * 86_400_000));
    const west = await signedIn(behind);
    const charts = await chartsDrawn(west);
    expect(await west.getByText('Дата начала позже даты окончания').count()).toBe(0);
    expect(await west.inputValue('[data-testid=to-input]')).toBe(last);
    for (const c of charts) expect(c.last).toBe(last);
    await behind.close();
  });

  it('a first load asks for its stats while the dashboard code loads, and for each block once it is scrolled to', async () => {
    // a fresh browser (nothing cached) with a session, as after a login some other day
    const fresh = await freshSignedInContext();
    const first = await fresh.newPage();
    // the stats, then the blocks under the charts: «Темп продаж», the distribution, the table's pace
    const wanted = ['stats/columns', 'pace', 'distribution', 'pace/rows'];
    const asked = new Map<string, string[]>(wanted.map((w) => [w, []]));
    const ahead: string[] = [];
    let statsSeen = () => {};
    const statsRequested = new Promise<boolean>((done) => {
      statsSeen = () => done(true);
      setTimeout(() => done(false), 10_000);
    });
    first.on('request', (r) => {
      const what = r.url().split('/api/project/')[1];
      if (!asked.has(what)) return;
      // the other status's stats are asked for ahead once the page is idle (counted apart, below)
      if (what === 'stats/columns' && r.postData()?.includes('AVAILABLE')) return ahead.push(r.postData()!);
      asked.get(what)!.push(r.postData() ?? '');
      if (what === 'stats/columns') statsSeen();
    });
    // the dashboard's code is held back until the stats are asked for (10 s at most): without the
    // prefetch the page asks for nothing before its code has run, and it comes after 10 s
    let askedBeforeCode = false;
    await fresh.route(/\/assets\/dashboard-page-[^/]*\.js$/, async (route) => {
      askedBeforeCode = await statsRequested;
      await route.continue();
    });
    await first.goto(`${product.url}/`);
    await first.waitForSelector('[data-testid=chart-all-rooms] .echart[data-series]');
    await first.waitForTimeout(500);
    expect(askedBeforeCode).toBe(true);
    // the first screen: the stats alone; the blocks below the fold are not asked for, their charts not drawn
    expect(Object.fromEntries([...asked].map(([w, bodies]) => [w, bodies.length]))).toEqual({
      'stats/columns': 1,
      pace: 0,
      distribution: 0,
      'pace/rows': 0,
    });
    expect(await first.$$eval('[data-testid=charts] .echart[data-pending]', (b) => b.length)).toBeGreaterThan(
      0,
    );
    await seeAll(first);
    await first.waitForSelector('[data-testid=chart-pace-stock] .echart[data-series="3"]');
    expect(
      await first.$eval('[data-testid=histogram-ppm]', (b) => Number((b as HTMLElement).dataset.flats)),
    ).toBeGreaterThan(0);
    expect(await first.$$eval('[data-testid=charts] .echart[data-pending]', (b) => b.length)).toBe(0);
    await first.waitForTimeout(500);
    await fresh.close();
    // the page found the prefetched stats under their query key, fresh: one request each, not two
    expect(Object.fromEntries([...asked].map(([w, bodies]) => [w, bodies.length]))).toEqual(
      Object.fromEntries(wanted.map((w) => [w, 1])),
    );
    // and «только свободные» of the same project and range asked for once, ahead
    expect(ahead.map((b) => JSON.parse(b))).toEqual([
      { ...JSON.parse(asked.get('stats/columns')![0]), status: 'AVAILABLE' },
    ]);
  });

  it('«только свободные» switched once the page is idle redraws from the stats asked for ahead, asking the server nothing', async () => {
    const fresh = await freshSignedInContext();
    const tab = await fresh.newPage();
    const stats: string[] = [];
    tab.on('request', (r) => {
      if (r.url().endsWith('/api/project/stats/columns')) stats.push(JSON.parse(r.postData()!).status);
    });
    await tab.goto(`${product.url}/`);
    await chartsDrawn(tab);
    // the other status asked for when the page is idle
    await tab.waitForFunction(
      () =>
        performance.getEntriesByType('resource').filter((r) => r.name.endsWith('/stats/columns')).length >= 2,
    );
    expect(stats).toEqual(['ALL', 'AVAILABLE']);
    const countBefore = await tab.getAttribute('[data-testid=chart-count] .echart', 'data-series');
    await tab.click('[data-testid=available-switch]');
    await tab.waitForURL(/status=available/);
    await seeAll(tab);
    await tab.waitForFunction(
      (before) =>
        document.querySelector('[data-testid=chart-count] .echart')?.getAttribute('data-series') !== before,
      countBefore,
    );
    expect(stats).toEqual(['ALL', 'AVAILABLE']);
    await fresh.close();
  });

  it('a first load of a page whose code loads on demand draws it without the loading fallback, its requests sent as it renders', async () => {
    const fresh = await freshSignedInContext();
    await fresh.addInitScript(() => {
      if (!location.protocol.startsWith('http')) return;
      // every fallback of a page's Suspense shown, counted as it is added (React keeps one up ≥ 300 ms)
      const seen = { fallbacks: 0 };
      Object.assign(window, { seen });
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes)
            if (
              n instanceof Element &&
              (n.matches('[data-testid=page-loading]') || n.querySelector('[data-testid=page-loading]'))
            )
              seen.fallbacks++;
      }).observe(document, { childList: true, subtree: true });
    });
    const first = await fresh.newPage();
    for (const [path, drawn] of [
      ['/market', '[data-testid=market-row]'],
      ['/chess', '[data-testid=chess-board]'],
      ['/summary', '[data-testid=summary-item]'],
    ] as const) {
      await first.goto(`${product.url}${path}`);
      await first.waitForSelector(drawn);
      expect({
        path,
        fallbacks: await first.evaluate(
          () => (window as unknown as { seen: { fallbacks: number } }).seen.fallbacks,
        ),
      }).toEqual({ path, fallbacks: 0 });
    }
    // a page reached inside the app still loads its code on demand (and may show the fallback meanwhile)
    await first.goto(`${product.url}/market`);
    await first.waitForSelector('[data-testid=market-row]');
    await first.click('a[href="/compare"]');
    await first.waitForURL(/\/compare/);
    await expectTitle(first, 'Сравнение проектов — Цена метра');
    await fresh.close();
  });

  it('another filter keeps the charts, dimmed, until its data come, then redraws them in place', async () => {
    // the answer for «только свободные» is held back until the charts have been seen dimmed, as a cold
    // server's would be (the one asked for ahead once the page is idle too: the switch then waits for it)
    let release = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    await page.route('**/api/project/stats/columns', async (route) => {
      if (route.request().postData()?.includes('AVAILABLE')) await held;
      await route.continue();
    });
    await page.goto(`${product.url}/`);
    await chartsDrawn(page);
    const countBefore = await page.getAttribute('[data-testid=chart-count] .echart', 'data-series');
    const canvas = await page.$('[data-testid=chart-all-rooms] canvas');
    await page.click('[data-testid=available-switch]');
    await page.waitForSelector('[data-testid=charts][aria-busy=true]', { timeout: 900 });
    expect(await page.$('[data-testid=dashboard-loading]')).toBeNull();
    release();
    await page.waitForSelector('[data-testid=charts][aria-busy=false]');
    // the same canvas, redrawn: the charts were not made anew
    expect(await canvas!.evaluate((c) => c.isConnected)).toBe(true);
    // the count chart, below the fold, redraws when scrolled to (DESIGN §12.2)
    expect(await page.getAttribute('[data-testid=chart-count] .echart', 'data-pending')).toBe('true');
    await seeAll(page);
    // with the new data: the count chart has no reserved lots' lines now
    expect(await page.getAttribute('[data-testid=chart-count] .echart', 'data-series')).not.toBe(countBefore);
    await page.unroute('**/api/project/stats/columns');
    await page.click('[data-testid=available-switch]');
    await page.waitForURL((u) => !u.search.includes('status='));
  });

  it('changing developer and project changes the data and the URL', async () => {
    const before = await tableRows(page);
    const developerOptions = await page.$$eval('[data-testid=developer-select] option', (o) =>
      o.map((x) => (x as HTMLOptionElement).value),
    );
    const other = developerOptions.find((v) => v !== '5')!;
    await page.selectOption('[data-testid=developer-select]', other);
    await page.waitForURL(new RegExp(`developer=${other}`));
    // the URL changes before React draws the other developer's project: its rows, once drawn, differ
    await expect.poll(() => tableRows(page), { timeout: 30_000 }).not.toEqual(before);
    await chartsDrawn(page);
    const afterDeveloper = await tableRows(page);
    expect(afterDeveloper.length).toBeGreaterThan(0);
    expect(afterDeveloper).not.toEqual(before);

    const projects = await page.$$eval('[data-testid=project-select] option', (o) =>
      o.map((x) => (x as HTMLOptionElement).value),
    );
    if (projects.length > 1) {
      await page.selectOption('[data-testid=project-select]', projects[1]);
      await page.waitForURL(new RegExp(`project=${projects[1]}`));
      await page.waitForFunction((before) => {
        const rows = [...document.querySelectorAll('[data-testid=summary-table] tbody tr')].map(
          (r) => r.textContent,
        );
        return rows.length > 0 && JSON.stringify(rows) !== before;
      }, JSON.stringify(afterDeveloper));
    }
  });

  it('the chart type rebuilds charts 5–8 only', async () => {
    await page.goto(`${product.url}/`);
    const plain = await chartsDrawn(page);
    expect(plain.slice(4, 8).every((c) => c.series <= 3)).toBe(true);
    await page.selectOption('[data-testid=chart-type-select]', 'BUILDING');
    await page.waitForURL(/type=BUILDING/);
    await seeAll(page);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=charts] [data-testid^=chart-] .echart')]
        .slice(4, 8)
        .some((b) => Number((b as HTMLElement).dataset.series) > 3),
    );
    const byBuilding = await chartsDrawn(page);
    expect(byBuilding.slice(0, 4)).toEqual(plain.slice(0, 4));
    expect(byBuilding.slice(4, 8).some((c) => c.series > 3)).toBe(true);
    expect(byBuilding[8]).toEqual(plain[8]);
  });

  it('dates narrow the range of every chart', async () => {
    await page.goto(`${product.url}/`);
    const full = await chartsDrawn(page);
    const from = '2026-01-01';
    const to = '2026-03-31';
    const statsCall = page.waitForRequest(
      (r) => r.url().endsWith('/api/project/stats/columns') && r.postDataJSON()?.to === to,
    );
    await page.goto(`${product.url}/?from=${from}&to=${to}`);
    expect((await statsCall).postDataJSON()).toMatchObject({ from, to });
    await seeAll(page);
    await page.waitForFunction(
      (to) =>
        [...document.querySelectorAll('[data-testid=charts] [data-testid^=chart-] .echart')].every(
          (b) => (b as HTMLElement).dataset.last === to,
        ),
      to,
    );
    const narrow = await chartsDrawn(page);
    for (const c of narrow) {
      expect(c.first! >= from).toBe(true);
      expect(c.last).toBe(to);
    }
    expect(full[8].first! < from).toBe(true);
    expect(await page.inputValue('[data-testid=from-input]')).toBe(from);
  });

  it('downloads a chart as PNG and the table as CSV, both non-empty', async () => {
    await page.goto(`${product.url}/`);
    await chartsDrawn(page);
    await page.click('[data-testid=chart-all-rooms] button[aria-label^="Меню графика"]');
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('text=Скачать PNG')]);
    const pngPath = join(ARTIFACTS, 'chart.png');
    await png.saveAs(pngPath);
    const pngBytes = readFileSync(pngPath);
    expect(pngBytes.length).toBeGreaterThan(5_000);
    expect(pngBytes.subarray(1, 4).toString()).toBe('PNG');

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=summary-table] button:has-text("CSV")'),
    ]);
    const csvPath = join(ARTIFACTS, 'summary.csv');
    await csv.saveAs(csvPath);
    const text = readFileSync(csvPath, 'utf8');
    expect(text.startsWith('\uFEFFКорпус;Дата сдачи;Отделка;Комнатность;')).toBe(true);
    expect(text.trim().split('\r\n').length).toBe((await tableRows(page)).length + 1);
  });

  it('keeps dark mode over a reload, and screenshots light and dark at 1440 and 390 px', async () => {
    await page.goto(`${product.url}/`);
    await chartsDrawn(page);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-light-1440.png'), fullPage: true });
    await page.click('[data-testid=dark-toggle]');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    await chartsDrawn(page);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('darkMode'))).toBe('1');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-dark-1440.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await seeAll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-dark-390.png'), fullPage: true });
    // below lg the navbar's items sit in the panel of the three-dot button
    await page.click('button[aria-label="Ещё"]');
    await page.click('[data-testid=dark-toggle]');
    await page.click('button[aria-label="Ещё"]');
    // the charts below the fold take the light theme when scrolled to (DESIGN §12.2)
    await seeAll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-light-390.png'), fullPage: true });
    expect(await page.evaluate(() => localStorage.getItem('darkMode'))).toBe('0');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});

describe('shell', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    page = await signedIn(context);
  });
  afterAll(() => context.close());

  it('a modal closes on Escape and on an overlay click; its buttons confirm', async () => {
    await page.goto(`${product.url}/ui`);
    await expectTitle(page, 'Интерфейс — Цена метра');
    await page.click('text=Подтверждение');
    expect(await page.isVisible('[role=dialog]')).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.isVisible('[role=dialog]')).toBe(false);
    expect(await page.textContent('[data-testid=modal-result]')).toBe('отменено');
    await page.click('text=Опасное действие');
    await page.mouse.click(10, 450);
    expect(await page.isVisible('[role=dialog]')).toBe(false);
    await page.click('text=Подтверждение');
    await page.click('[role=dialog] >> text=Подтвердить');
    expect(await page.textContent('[data-testid=modal-result]')).toBe('подтверждено');
  });

  it('the user menu opens, closes on a click outside, and leads to the profile', async () => {
    await page.goto(`${product.url}/ui`);
    await page.click('button[aria-label="Меню пользователя"]');
    expect(await page.isVisible('text=Мой профиль')).toBe(true);
    await page.mouse.click(700, 500);
    expect(await page.isVisible('text=Мой профиль')).toBe(false);
    await page.click('button[aria-label="Меню пользователя"]');
    await page.click('text=Мой профиль');
    await page.waitForURL(`${product.url}/profile`);
    expect(await page.textContent('[data-testid=profile-username]')).toBe('demo');
  });

  it('Ctrl+K focuses the search, Escape leaves it; a project found opens the dashboard, a flat its card', async () => {
    await page.goto(`${product.url}/profile`);
    await page.waitForSelector('[data-testid=profile-username]');
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'search-input',
    );
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).not.toBe(
      'search-input',
    );
    const asked = page.waitForRequest((r) => r.url().includes('/api/search?q='));
    await page.keyboard.press('Control+k');
    await page.keyboard.type('залив');
    expect(decodeURIComponent((await asked).url())).toContain('q=залив');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=search-input] ~ ul button')].some((b) =>
        /залив/i.test(b.textContent ?? ''),
      ),
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/\?.*project=\d+/);
    await chartsDrawn(page);
    const selected = await page.$eval(
      '[data-testid=project-select]',
      (s) => (s as HTMLSelectElement).selectedOptions[0].text,
    );
    expect(selected.toLowerCase()).toContain('залив');

    await page.keyboard.press('Control+k');
    await page.keyboard.type('5');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=search-input] ~ ul button')].some((b) =>
        b.textContent?.startsWith('№ 5 ('),
      ),
    );
    // arrow keys move through the groups to the flat
    const labels = await page.$$eval('[data-testid=search-input] ~ ul button', (b) =>
      b.map((x) => x.textContent ?? ''),
    );
    const flatIndex = labels.findIndex((l) => l.startsWith('№ 5 ('));
    expect(flatIndex, JSON.stringify(labels)).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < flatIndex; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${product.url}/flat?flatId=5`);
    await page.waitForSelector('[data-testid=flat-card]');
  });

  it('refresh asks the server again; a range without data shows the empty state', async () => {
    await page.goto(`${product.url}/`);
    await chartsDrawn(page);
    const again = page.waitForRequest((r) => r.url().endsWith('/api/project/stats/columns'));
    await page.click('button[aria-label="Обновить"]');
    expect((await again).method()).toBe('POST');
    await page.goto(`${product.url}/?from=2001-01-01&to=2001-12-31`);
    await page.waitForSelector('[data-testid=dashboard-empty]');
    expect(await page.textContent('[data-testid=dashboard-empty]')).toMatch(/За выбранный период данных нет/);
  });

  it("shows the server's message in a toast when a call fails", async () => {
    await page.goto(`${product.url}/?from=2005-01-01&to=2026-01-01`);
    const toast = await page.waitForSelector('[data-testid=toast]');
    expect(await toast.textContent()).toContain('from: период длиннее 15 лет');
  });

  it('a call the browser blocks (status 0) shows the CORS message', async () => {
    await page.route('**/api/developers', (route) => route.abort('accessdenied'));
    await page.goto(`${product.url}/`);
    const toast = await page.waitForSelector('[data-testid=toast] >> text=CORS');
    expect(await toast.textContent()).toContain(
      'Доступ к серверу ограничен политикой CORS. Обратитесь в поддержку.',
    );
    await page.unroute('**/api/developers');
  });

  it('downloads JPEG, SVG and PDF of a chart', async () => {
    await page.goto(`${product.url}/`);
    await chartsDrawn(page);
    const download = async (label: string, name: string) => {
      await page.click('[data-testid=chart-count] button[aria-label^="Меню графика"]');
      const [file] = await Promise.all([page.waitForEvent('download'), page.click(`text=${label}`)]);
      const path = join(ARTIFACTS, name);
      await file.saveAs(path);
      return readFileSync(path);
    };
    const jpeg = await download('Скачать JPEG', 'chart.jpg');
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const svg = (await download('Скачать SVG', 'chart.svg')).toString();
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('Квартир');
    const pdf = await download('Скачать PDF', 'chart.pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(5_000);
  });

  it('on a phone the aside opens from the burger and closes on navigation', async () => {
    const phone = await newContext({ viewport: { width: 390, height: 844 } });
    const p = await phone.newPage();
    await p.goto(`${product.url}/login`);
    await p.fill('input[name=username]', 'demo');
    await p.fill('input[name=password]', 'demo');
    await p.click('button[type=submit]');
    await p.waitForURL(`${product.url}/`);
    await p.waitForSelector('aside', { state: 'attached' });
    const asideLeft = () => p.$eval('aside', (a) => a.getBoundingClientRect().left);
    expect(await asideLeft()).toBeLessThan(0);
    await p.click('button[aria-label="Меню"] >> visible=true');
    await p.waitForFunction(() => document.querySelector('aside')!.getBoundingClientRect().left >= 0);
    await p.click('aside >> text=Профиль');
    await p.waitForURL(`${product.url}/profile`);
    await p.waitForFunction(() => document.querySelector('aside')!.getBoundingClientRect().right <= 0);
    await phone.close();
  });
});

/** Telegram WebApp initData for the e2e bot token, signed the way Telegram signs it. */
function telegramInitData(): string {
  const fields = {
    auth_date: String(Math.floor(Date.now() / 1000)),
    user: JSON.stringify({ id: 501, first_name: 'Анна' }),
  };
  const check = Object.entries(fields)
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(E2E_BOT_TOKEN).digest();
  return new URLSearchParams({
    ...fields,
    hash: createHmac('sha256', secret).update(check).digest('hex'),
  }).toString();
}

describe('«Надёжность сроков» on «Рынок»’s developers (DESIGN §12.3)', () => {
  it('shows the share of each developer’s registry objects moved later', async () => {
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedIn(context, '/market');
    await page.click('[data-testid=market-view-developers]');
    const header = page.locator('[data-testid=market-table] thead', { hasText: 'Надёжность сроков' });
    await header.waitFor();
    const pioneer = page.locator('[data-testid=market-row]', { hasText: 'Пионер' });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=market-row]')].some((r) =>
        /\d+ % объектов/.test(r.textContent ?? ''),
      ),
    );
    expect(await pioneer.innerText()).toMatch(/\d+ % объектов/);
    // its registry group's figure beside (over every object of the group)
    expect(await pioneer.locator('[data-testid=group-reliability]').innerText()).toMatch(
      /^группа: \d+(,\d+)? % объектов/,
    );
    await context.close();
  });
});

describe('«Рынок» with every registry project (DESIGN §12.3)', () => {
  it('lists the registry-only project with its sold share, on the map too; «только с прайс-листами» leaves it out', async () => {
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedIn(context, '/market');
    const only = page.locator('[data-testid=market-row]', { hasText: 'Речной берег' });
    await only.waitFor();
    expect(await only.locator('[data-testid=registry-only]').textContent()).toBe('только реестр');
    // no list: no stock, pace or price — its class and its sold share are the registry's
    const cells = await only.locator('td').allInnerTexts();
    expect(cells.some((c) => c.includes('Северстрой'))).toBe(true);
    expect(cells.filter((c) => c === '—').length).toBeGreaterThanOrEqual(7);
    expect(cells.some((c) => /^\d+(,\d+)?\s%$/.test(c))).toBe(true);
    expect(await only.locator('input[type=checkbox]').count()).toBe(0);
    // ours with registry objects carry «Продано по реестру» too
    const sold = () =>
      page.$$eval('[data-testid=market-table]', ([table]) => {
        const at = [...table.querySelectorAll('thead th')].findIndex((th) =>
          th.textContent?.startsWith('Продано по реестру'),
        );
        return [...table.querySelectorAll('tbody tr')]
          .filter((tr) => !tr.querySelector('[data-testid=registry-only]'))
          .map((tr) => tr.querySelectorAll('td')[at]?.textContent ?? '');
      });
    await expect.poll(async () => (await sold()).filter((c) => /\s%$/.test(c)).length).toBeGreaterThan(5);
    expect(await page.textContent('[data-testid=market-total]')).toContain('ещё 1 только в реестре');
    const map = '[data-testid=market-map]';
    await page.waitForSelector(`${map}[data-points]`);
    await expect
      .poll(() => page.$eval(map, (b) => Number((b as HTMLElement).dataset.registryPoints)))
      .toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'market-registry-1440.png'), fullPage: true });
    // its row exported with the others, the sold share a number
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=market-export-xlsx]'),
    ]);
    const saved = join(ARTIFACTS, 'market-registry.xlsx');
    await file.saveAs(saved);
    const excel = await readSheet(readFileSync(saved));
    const header = excel[0];
    const row = excel.find((r) => r[0] === 'Речной берег')!;
    expect(row).toBeDefined();
    expect(typeof row[header.indexOf('Продано по реестру, %')]).toBe('number');
    expect(row[header.indexOf('В продаже')] ?? null).toBeNull();
    await page.click('[data-testid=market-lists-only]');
    await page.waitForURL(/lists=only/);
    await only.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.$eval(map, (b) => Number((b as HTMLElement).dataset.registryPoints)))
      .toBe(0);
    await context.close();
  });
});

describe('«Старты и ввод» (the registry’s pipeline, DESIGN §12.3)', () => {
  it('lists the demo registry’s quarters, filters by class, exports', async () => {
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedIn(context);
    await page.click('nav >> text=Старты и ввод');
    await page.waitForURL(`${product.url}/pipeline`);
    await expectTitle(page, 'Старты и ввод — Цена метра');
    const rows = page.locator('[data-testid=pipeline-table] tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(24);
    const texts = await rows.allInnerTexts();
    expect(texts[0]).toMatch(/^I кв\. \d{4}/);
    const completions = texts.map((t) => Number(t.split('\t')[3].replace(/\D/g, '') || 0));
    expect(completions.reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
    const count = page.locator('[data-testid=pipeline-count]');
    const objects = async () => Number(/объектов: (\d+)/.exec((await count.textContent()) ?? '')?.[1] ?? 0);
    await page.waitForFunction(() =>
      /объектов: \d+/.test(document.querySelector('[data-testid=pipeline-count]')?.textContent ?? ''),
    );
    const all = await objects();
    expect(all).toBeGreaterThan(20);
    await page.selectOption('[data-testid=pipeline-class]', 'Бизнес');
    await page.waitForURL(/class=/);
    await page.waitForFunction(
      (before) =>
        !(document.querySelector('[data-testid=pipeline-count]')?.textContent ?? '').includes(
          `объектов: ${before}`,
        ),
      all,
    );
    expect(await objects()).toBeLessThan(all);
    expect(await page.isEnabled('[data-testid=pipeline-export-xlsx]')).toBe(true);
    await page.screenshot({ path: 'e2e/artifacts/pipeline-1440.png' });
    await context.close();
  });
});

describe('daily summaries (open)', () => {
  it('a visitor who never signed in follows summary → project → flat', async () => {
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${product.url}/summary`);
    await expectTitle(page, 'Ежедневная сводка — Цена метра');
    await page.waitForSelector('[data-testid=summary-item] table tbody tr');
    expect(await page.isVisible('[data-testid=sign-in]')).toBe(true);
    const items = await page.$$('[data-testid=summary-item]');
    expect(items.length).toBe(10);
    await page.click('text=Показать ещё');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=summary-item]').length > 10);
    await page.screenshot({ path: join(ARTIFACTS, 'summary-1440.png'), fullPage: true });

    // the project of the newest summary with the most events
    const links = await page.$$eval('[data-testid=summary-item] table tbody tr', (rows) =>
      rows.map((r) => {
        const cells = [...r.querySelectorAll('td')].map((td) => td.textContent ?? '');
        const events = [2, 3, 4, 5].reduce((s, i) => s + Number(cells[i]), 0);
        return { href: r.querySelector('a')!.getAttribute('href')!, events };
      }),
    );
    const busiest = links.sort((a, b) => b.events - a.events)[0];
    expect(busiest.events).toBeGreaterThan(0);
    await page.click(`a[href="${busiest.href}"]`);
    await page.waitForURL(`${product.url}${busiest.href}`);
    await expectTitle(page, 'Сводка по проекту — Цена метра');
    await page.waitForSelector('table[data-testid^=events-] tbody tr');
    await page.screenshot({ path: join(ARTIFACTS, 'summary-project-1440.png'), fullPage: true });

    const flatLink = await page.$eval(
      'table[data-testid^=events-] tbody tr a',
      (a) => a.getAttribute('href')!,
    );
    await page.click(`a[href="${flatLink}"]`);
    await page.waitForURL(`${product.url}${flatLink}`);
    await expectTitle(page, 'Сводка по квартире — Цена метра');
    await page.waitForSelector('[data-testid=flat-card]');
    expect(await page.textContent('[data-field="Статус"]')).toMatch(/В продаже|Снята с продажи/);
    expect(await page.textContent('[data-field="Цена за м²"]')).toMatch(/₽$/);
    await page.waitForSelector('[data-testid=chart-flat-history] canvas');
    expect(Number(await page.getAttribute('[data-testid=chart-flat-history] .echart', 'data-series'))).toBe(
      1,
    );
    expect((await page.$$('[data-testid=flat-changes] tbody tr')).length).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, 'summary-flat-1440.png'), fullPage: true });
    await context.close();
  });

  it('inside Telegram the pages send the WebApp data in the token header', async () => {
    const context = await newContext();
    await context.addInitScript((initData) => {
      (window as unknown as { Telegram: unknown }).Telegram = { WebApp: { initData } };
    }, telegramInitData());
    const page = await context.newPage();
    const call = page.waitForRequest((r) => r.url().includes('/api/summaries'));
    await page.goto(`${product.url}/summary`);
    const headers = (await call).headers();
    expect(Buffer.from(headers.token, 'base64').toString()).toContain('hash=');
    const res = await (await call).response();
    expect(res?.status(), await res?.text()).toBe(200);
    await page.waitForSelector('[data-testid=summary-item] table tbody tr');
    await context.close();
  });

  it('opened from the digest button in Telegram: /summary/:id reads the launch fragment, sends the token, takes the theme', async () => {
    const [newest] = (await (await fetch(`${product.url}/api/summaries?limit=1`)).json()) as { id: number }[];
    const initData = telegramInitData();
    const theme = {
      bg_color: '#17212b',
      secondary_bg_color: '#232e3c',
      text_color: '#f5f5f5',
      button_color: '#5288c1',
    };
    const fragment = new URLSearchParams({
      tgWebAppData: initData,
      tgWebAppVersion: '7.0',
      tgWebAppPlatform: 'android',
      tgWebAppThemeParams: JSON.stringify(theme),
    });
    const context = await newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'light' });
    const page = await context.newPage();
    const call = page.waitForRequest((r) => r.url().endsWith(`/api/summary/${newest!.id}`));
    await page.goto(`${product.url}/summary/${newest!.id}#${fragment}`);
    const request = await call;
    expect(Buffer.from(request.headers().token!, 'base64').toString()).toBe(initData);
    expect((await request.response())?.status()).toBe(200);
    await expectTitle(page, 'Ежедневная сводка — Цена метра');
    await page.waitForSelector(`[data-testid=summary-${newest!.id}-projects] tbody tr`);
    expect(await page.textContent('[data-testid=summary-day]')).toMatch(/проектов: \d+/);
    // the chat's dark theme, although the browser prefers light
    const look = await page.evaluate(() => ({
      classes: document.documentElement.className,
      body: getComputedStyle(document.body).backgroundColor,
      text: getComputedStyle(document.body).color,
    }));
    expect(look.classes).toContain('dark');
    expect(look.classes).toContain('tg-theme');
    expect(look.body).toBe('rgb(23, 33, 43)');
    expect(look.text).toBe('rgb(245, 245, 245)');
    await page.screenshot({ path: join(ARTIFACTS, 'telegram-summary-390.png'), fullPage: true });
    // moving on inside the app keeps sending the token (the fragment is gone from the URL by then)
    const href = await page.$eval(`[data-testid=summary-${newest!.id}-projects] tbody a`, (a) =>
      a.getAttribute('href'),
    );
    const next = page.waitForRequest((r) => r.url().includes(`/api/summary/${newest!.id}/project/`));
    await page.click(`a[href="${href}"]`);
    expect(Buffer.from((await next).headers().token!, 'base64').toString()).toBe(initData);
    await context.close();
  });

  it('/flat finds a flat by its number for a signed-in user', async () => {
    const context = await newContext();
    const page = await signedIn(context, '/flat');
    await expectTitle(page, 'Квартира — Цена метра');
    await page.fill('[data-testid=flat-lookup]', '-3');
    await page.click('button[type=submit]');
    expect(await page.textContent('[role=alert]')).toContain('целое положительное число');
    await page.fill('[data-testid=flat-lookup]', '1');
    await page.click('button[type=submit]');
    await page.waitForURL(`${product.url}/flat?flatId=1`);
    await page.waitForSelector('[data-testid=flat-card]');
    expect(await page.textContent('[data-field="Застройщик"]')).not.toBe('');
    // A link with a bad number says so; a number not in the database shows the server's error.
    await page.goto(`${product.url}/flat?flatId=abc`);
    expect(await page.textContent('[role=alert]')).toBe('Номер квартиры: целое положительное число');
    expect(await page.inputValue('[data-testid=flat-lookup]')).toBe('abc');
    await page.goto(`${product.url}/flat?flatId=99999999`);
    expect(await (await page.waitForSelector('[data-testid=error-state]')).textContent()).toContain(
      '99999999',
    );
    await context.close();
  });
});

describe('price changes (/tables)', () => {
  it('filters, sorts and pages on the server; the CSV holds exactly the filtered rows', async () => {
    const context = await newContext({
      acceptDownloads: true,
      viewport: { width: 1440, height: 900 },
    });
    const page = await signedIn(context, '/tables');
    await expectTitle(page, 'Tables — Цена метра');
    await page.waitForSelector('[data-testid=pc-table] tbody tr');
    const total = async () =>
      Number(((await page.textContent('[data-testid=pc-total]')) ?? '').replace(/\D/g, ''));
    const all = await total();
    expect(all).toBeGreaterThan(50);
    expect(await page.textContent('[data-testid=pc-page]')).toBe(`Страница 1 из ${Math.ceil(all / 50)}`);
    await page.screenshot({ path: join(ARTIFACTS, 'tables-1440.png'), fullPage: true });

    const call = page.waitForRequest(
      (r) => r.url().includes('/api/price-changes?') && r.url().includes('kind=PRICE_DOWN'),
    );
    await page.selectOption('[data-testid=pc-kind]', 'PRICE_DOWN');
    await call;
    await page.waitForFunction(
      (before) =>
        Number(document.querySelector('[data-testid=pc-total]')?.textContent?.replace(/\D/g, '')) < before,
      all,
    );
    const down = await total();
    const kinds = await page.$$eval('[data-testid=pc-table] tbody tr td:nth-child(2)', (c) => [
      ...new Set(c.map((x) => x.textContent)),
    ]);
    expect(kinds).toEqual(['Подешевела']);

    // sort by change: the largest cut first
    await page.click('[data-testid=pc-table] th button:has-text("Изменение")');
    await page.waitForURL(/sort=-changePercent/);
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll('[data-testid=pc-table] tbody tr td:last-child')].map((c) =>
        Number(
          (c.textContent ?? '')
            .replace('−', '-')
            .replace(/[^\d,-]/g, '')
            .replace(',', '.'),
        ),
      );
      return cells.length > 1 && cells.every((v, i) => i === 0 || cells[i - 1] >= v);
    });

    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("CSV")')]);
    const path = join(ARTIFACTS, 'price-changes.csv');
    await csv.saveAs(path);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('\uFEFFДата;Событие;')).toBe(true);
    const lines = text.trimEnd().split('\r\n');
    expect(lines.length - 1).toBe(down);
    expect(lines.slice(1).every((l) => l.split(';')[1] === 'Подешевела')).toBe(true);
    await context.close();
  });
});

describe('discounts by project', () => {
  it('switches the period, sorts by the largest discount, and opens a project to its flats', async () => {
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedIn(context, '/discounts-by-project');
    await expectTitle(page, 'Скидки по проектам — Цена метра');
    await page.waitForSelector('[data-testid=discount-projects] tbody tr');
    expect((await page.$$('[data-testid=discount-projects] tbody tr')).length).toBe(23);
    const asked = page.waitForRequest(
      (r) => r.url().endsWith('/api/discount/project') && r.postDataJSON()?.period === 'YEAR',
    );
    await page.click('fieldset[aria-label="Период"] >> text=Год');
    await asked;
    await page.waitForURL(/period=YEAR/);
    await page.waitForSelector('[data-testid=discount-projects] tbody tr');
    const maxes = await page.$$eval('[data-testid=discount-projects] tbody tr td:nth-child(5)', (c) =>
      c.map((x) => Number((x.textContent ?? '').replace(/[^\d,]/g, '').replace(',', '.'))),
    );
    expect(maxes.every((v, i) => i === 0 || maxes[i - 1] >= v)).toBe(true);
    expect(maxes[0]).toBeGreaterThan(0);
    await page.click('[data-testid=discount-projects] tbody tr:first-child');
    await page.waitForSelector('[data-testid=top-discounts] tbody tr');
    await page.screenshot({ path: join(ARTIFACTS, 'discounts-1440.png'), fullPage: true });
    const href = await page.$eval('[data-testid=top-discounts] tbody tr a', (a) => a.getAttribute('href')!);
    await page.click(`[data-testid=top-discounts] a[href="${href}"]`);
    await page.waitForURL(`${product.url}${href}`);
    await page.waitForSelector('[data-testid=flat-card]');
    await context.close();
  });
});

describe('prices as offered (DESIGN §11.4)', () => {
  it('the dashboard draws the 100 % payment price beside the list price; discounts by the developer’s data; a flat card’s old price, discount and promotion', async () => {
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedIn(context);
    // Пионер (the default developer) prices a 100 % payment
    await chartsDrawn(page);
    await page.waitForSelector('[data-testid=chart-offer-prices] .echart canvas');
    await expect
      .poll(() =>
        page.$eval('[data-testid=chart-offer-prices] .echart', (b) => (b as HTMLElement).dataset.series),
      )
      .toBe('2');
    // «Скидки по проектам» by the crossed-out prices
    await page.goto(`${product.url}/discounts-by-project`);
    await page.waitForSelector('[data-testid=discount-projects] tbody tr');
    const asked = page.waitForRequest(
      (r) => r.url().endsWith('/api/discount/project') && r.postDataJSON()?.basis === 'developer',
    );
    await page.click('[data-testid=discount-basis-developer]');
    await asked;
    await page.waitForURL(/basis=developer/);
    await expect
      .poll(async () =>
        (
          await page.$$eval('[data-testid=discount-projects] tbody tr td:nth-child(3)', (c) =>
            c.map((x) => Number(x.textContent)),
          )
        ).some((n) => n > 0),
      )
      .toBe(true);
    // a flat crossed out by the developer: its card shows both prices and the developer's discount
    const { token } = await demoSession();
    const api = (path: string, body?: object) =>
      fetch(`${product.url}/api${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      }).then((r) => r.json());
    const [crossed] = (await api('/discount', { period: 'DAY', basis: 'developer', limit: 1 })).rows;
    await page.goto(`${product.url}/flat?flatId=${crossed.flatId}`);
    await page.waitForSelector('[data-testid=flat-offer]');
    expect(await page.textContent('[data-testid=flat-offer] dd[data-field="Старая цена"]')).toMatch(
      /^[\d\s ]+ ₽$/,
    );
    expect(
      await page.textContent('[data-testid=flat-offer] dd[data-field="Скидка по данным застройщика"]'),
    ).toBe(`${crossed.discountPercent.toFixed(2).replace('.', ',')} %`);
    // a seasonal campaign's flat (a promotion started with a campaign's name, not a cut's old price alone)
    const started = (await api('/price-changes?kind=PROMO_STARTED&pageSize=100')).rows as {
      flatId: number;
    }[];
    let promo: { flatId: number } | undefined;
    for (const e of started) {
      const card = await api(`/flat?flatId=${e.flatId}`);
      if (card.offerHistory.some((h: { offer: { promo: string | null } }) => h.offer.promo)) {
        promo = e;
        break;
      }
    }
    expect(promo).toBeDefined();
    await page.goto(`${product.url}/flat?flatId=${promo!.flatId}`);
    await page.waitForSelector('[data-testid=flat-offer]');
    // the promotion: in the offer now («Акция») or in its history under it
    const offerText = await page.$$eval('[data-testid=flat-offer], [data-testid=flat-offer-history]', (els) =>
      els.map((e) => e.textContent).join(' '),
    );
    expect(offerText).toContain('Сезонная скидка');
    await page.screenshot({ path: join(ARTIFACTS, 'flat-offer-1440.png'), fullPage: true });
    await context.close();
  });
});

describe('on a phone (390 px)', () => {
  it("tables are cards labelled from the header; a select sorts them; the chosen project's discounts scroll into view", async () => {
    const context = await newContext({ viewport: { width: 390, height: 844 } });
    const page = await signedIn(context, '/discounts-by-project');
    await page.waitForSelector('[data-testid=discount-projects] tbody tr');
    expect(await page.isVisible('[data-testid=discount-projects] thead')).toBe(false);
    // Each value is shown after its column's label (the card form of the template).
    const firstCard = await page.$$eval('[data-testid=discount-projects] tbody tr:first-child td', (tds) =>
      tds.map((td) => [td.dataset.label, getComputedStyle(td, '::before').content]),
    );
    expect(firstCard.map(([label]) => label)).toEqual([
      'Проект',
      'Застройщик',
      'В продаже',
      'Со скидкой',
      'Макс. скидка',
      'Сред. скидка',
      'Сред. цена м², ₽',
    ]);
    expect(firstCard[2]?.[1]).toBe('"В продаже"');
    // Sorting without the header: the select.
    await page.selectOption('[data-testid=discount-sort]', 'activeFlats');
    const active = await page.$$eval('[data-testid=discount-projects] tbody tr td:nth-child(3)', (c) =>
      c.map((x) => Number((x.textContent ?? '').replace(/\D/g, ''))),
    );
    expect(active).toHaveLength(23);
    expect(active.every((v, i) => i === 0 || active[i - 1]! <= v)).toBe(true);
    expect(active[0]).toBeLessThan(active[22]!);
    // The last project's discounts open below a long list: they are scrolled into view.
    await page.click('[data-testid=discount-projects] tbody tr:last-child button');
    await page.waitForFunction(() => {
      const title = [...document.querySelectorAll('h2')].find((h) =>
        h.textContent?.startsWith('Крупнейшие скидки'),
      );
      const top = title?.getBoundingClientRect().top;
      return top !== undefined && top >= 0 && top < window.innerHeight;
    });
    await page.screenshot({ path: join(ARTIFACTS, 'discounts-390.png') });

    // /tables: the sort select writes the same `sort` the header buttons do.
    await page.goto(`${product.url}/tables`);
    await page.waitForSelector('[data-testid=pc-table] tbody tr');
    expect(await page.isVisible('[data-testid=pc-table] thead')).toBe(false);
    await page.selectOption('[data-testid=pc-sort]', 'changePercent');
    await page.waitForURL(/sort=changePercent/);
    await context.close();
  });
});

describe('template pages', () => {
  it('/responsive shows the sample clients (loaded with ?v=3) as a table, or as cards on a phone; a failure shows its error', async () => {
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedIn(context);
    const asked = page.waitForRequest((r) => r.url().endsWith('/data-sources/clients.json?v=3'));
    const askedHistory = page.waitForRequest((r) => r.url().endsWith('/data-sources/history.json?v=3'));
    await page.goto(`${product.url}/responsive`);
    await asked;
    await askedHistory;
    await expectTitle(page, 'Адаптивность — Цена метра');
    await page.waitForSelector('[data-testid=clients-table] tbody tr');
    expect((await page.$$('[data-testid=clients-table] tbody tr')).length).toBe(20);
    // The template's transactions list, newest first, labelled in Russian.
    const transactions = await page.$$eval('[data-testid=transactions] li', (lis) =>
      lis.map((li) => li.textContent ?? ''),
    );
    expect(transactions).toHaveLength(4);
    expect(transactions[0]).toContain('Бронь квартиры 2-12');
    expect(transactions[0]).toContain('+1 250 000 ₽');
    expect(transactions[0]).toContain('Поступление');
    expect(transactions[3]).toContain('−15 000 ₽');
    expect(transactions[3]).toContain('Списание');
    expect(await page.isVisible('[data-testid=clients-table] thead')).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.isVisible('[data-testid=clients-table] thead')).toBe(false);
    await page.waitForTimeout(400); // the aside slides away (a CSS transition)
    await page.screenshot({ path: join(ARTIFACTS, 'responsive-390.png') });
    await page.route('**/data-sources/*.json*', (route) => route.fulfill({ status: 500, body: 'nope' }));
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=error-state]').length === 2);
    const errors = await page.$$eval('[data-testid=error-state]', (els) =>
      els.map((e) => e.textContent ?? ''),
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('Не удалось загрузить пример данных (/data-sources/clients.json?v=3)');
    expect(errors[1]).toContain('Не удалось загрузить пример данных (/data-sources/history.json?v=3)');
    await context.close();
  });

  it('/forms: custom checkbox, radio, switch and file picker submit and reset; the status bar cycles', async () => {
    const context = await newContext();
    const page = await signedIn(context, '/forms');
    await expectTitle(page, 'Формы — Цена метра');
    await page.fill('input[name=name]', 'Анна');
    await page.fill('input[name=email]', 'anna@example.ru');
    // The custom controls are real inputs: checkbox, radio, switch, file picker.
    const tick = () => page.$eval('input[name=agree] + svg', (el) => getComputedStyle(el).visibility);
    expect(await tick()).toBe('hidden');
    await page.click('text=Согласен с условиями');
    expect(await page.isChecked('input[name=agree]')).toBe(true);
    expect(await tick()).toBe('visible');
    await page.click('text=Расширенный');
    expect(await page.isChecked('input[name=plan][value=pro]')).toBe(true);
    expect(await page.isChecked('[role=switch]')).toBe(true);
    await page.click('text=Присылать ежедневную сводку');
    expect(await page.isChecked('[role=switch]')).toBe(false);
    expect(await page.textContent('[data-testid=file-file]')).toBe('Файл не выбран');
    await page.setInputFiles('input[name=file]', {
      name: 'прайс.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('a;b\n1;2\n'),
    });
    expect(await page.textContent('[data-testid=file-file]')).toBe('прайс.csv');
    await page.click('form[aria-label="Заявка"] button[type=submit]');
    expect(await page.textContent('[role=status]')).toBe(
      'Отправлено: Анна (anna@example.ru), Доступ к аналитике, тариф: расширенный, сводка: нет, файл: прайс.csv',
    );
    await page.click('form[aria-label="Заявка"] button[type=reset]');
    expect(await page.$('[role=status]')).toBeNull();
    expect(await page.textContent('[data-testid=file-file]')).toBe('Файл не выбран');
    expect(await page.isChecked('[role=switch]')).toBe(true);
    const first = await page.textContent('[data-testid=status-bar]');
    await page.click('text=Следующий статус');
    expect(await page.textContent('[data-testid=status-bar]')).not.toBe(first);
    await context.close();
  });
});

// Last in the file: it changes the demo account's password.
describe('days without data (DESIGN §10.1)', () => {
  it('a project with a month-long gap: every chart breaks and shades it, its summary says the lists came after a gap', async () => {
    const { token } = await demoSession();
    const flat = (id: string, price: number) => ({ id, building: 'Корпус 7', rooms: 1, area: 40, price });
    const day = (date: string, price: number) => ({
      date,
      developer: 'Разрыв',
      project: 'Долгий перерыв',
      flats: [flat('a', price), flat('b', 9_000_000)],
    });
    const ingest = await fetch(`${product.url}/api/ingest/snapshots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify([
        day('2026-08-01', 8_000_000),
        day('2026-08-02', 8_000_000),
        day('2026-10-15', 8_400_000),
      ]),
    });
    expect(ingest.status).toBe(200);
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await signedIn(context);
      const developers = (await (
        await fetch(`${product.url}/api/developers`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { id: number; name: string }[];
      const developer = developers.find((d) => d.name === 'Разрыв')!;
      const [project] = await (
        await fetch(`${product.url}/api/projects?developerId=${developer.id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json();
      await page.goto(
        `${product.url}/?developer=${developer.id}&project=${project.id}&from=2026-07-01&to=2026-10-31`,
      );
      await chartsDrawn(page);
      const gaps = await page.$$eval('[data-testid=charts] [data-testid^=chart-] .echart', (boxes) =>
        boxes.map((b) => (b as HTMLElement).dataset.gaps),
      );
      // 2026-08-02 carries to 2026-09-02 (C = 31); 2026-09-03 … 2026-10-14 have no data, in all nine charts
      expect(gaps).toEqual(Array(9).fill('1'));
      // the «Качество данных» panel names the gap
      const quality = await page.waitForSelector('[data-testid=quality-panel]');
      expect(await quality.textContent()).toContain('15 октября 2026 г., после перерыва в 74 дня');
      await page.screenshot({ path: `${ARTIFACTS}/gap-dashboard.png` });

      const summaries = (await (await fetch(`${product.url}/api/summaries?limit=100`)).json()) as {
        id: number;
        date: string;
      }[];
      const after = summaries.find((s) => s.date === '2026-10-15')!;
      await page.goto(`${product.url}/summary/${after.id}/project/${project.id}`);
      expect(await page.textContent('[data-testid=gap-notice]')).toContain('после перерыва в 74 дня');
      expect(await page.textContent('[data-testid=events-PRICE_UP] [data-testid=after-gap]')).toBe(
        'после перерыва в 74 дня',
      );
    } finally {
      await context.close();
    }
  });
});

describe('reserved lots, area changes and partial scans (DESIGN §10.2–10.4)', () => {
  it('«только свободные» redraws from the URL; the partial list is flagged; the flat card shows its status and area history', async () => {
    const { token } = await demoSession();
    const auth = { authorization: `Bearer ${token}` };
    const lot = (id: string, area: number, price: number, status: string) => ({
      id,
      building: '1',
      rooms: 1,
      area,
      price,
      status,
    });
    const day = (date: string, c: string, aArea = 40) => ({
      date,
      developer: 'Бронь',
      project: 'Свободные и занятые',
      flats: [
        lot('a', aArea, 8_000_000, 'AVAILABLE'),
        lot('b', 50, 10_000_000, 'RESERVED'),
        lot('c', 60, 12_000_000, c),
        lot('d', 45, 9_000_000, 'AVAILABLE'),
      ],
    });
    const ingest = await fetch(`${product.url}/api/ingest/snapshots`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify([
        day('2026-09-01', 'AVAILABLE'),
        day('2026-09-02', 'RESERVED', 40.5),
        day('2026-09-03', 'RESERVED', 40.5),
        { ...day('2026-09-04', 'RESERVED', 40.5), flats: [lot('a', 40.5, 8_000_000, 'AVAILABLE')] },
        day('2026-09-05', 'AVAILABLE', 40.5),
      ]),
    });
    expect(ingest.status).toBe(200);
    expect((await ingest.json()).map((r: { partial: boolean }) => r.partial)).toEqual([
      false,
      false,
      false,
      true,
      false,
    ]);
    const developers = (await (await fetch(`${product.url}/api/developers`, { headers: auth })).json()) as {
      id: number;
      name: string;
    }[];
    const developer = developers.find((d) => d.name === 'Бронь')!;
    const [project] = await (
      await fetch(`${product.url}/api/projects?developerId=${developer.id}`, { headers: auth })
    ).json();
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await signedIn(context);
      await page.goto(
        `${product.url}/?developer=${developer.id}&project=${project.id}&from=2026-09-01&to=2026-09-05`,
      );
      const all = await chartsDrawn(page);
      // the count chart: five room groups and «Свободные», «Забронированы»
      expect(all[8].series).toBe(7);
      const activeFlats = () => page.$$eval('[data-testid=summary-table] tbody tr', (rows) => rows.length);
      expect(await activeFlats()).toBeGreaterThan(0);
      const summaryText = await page.textContent('[data-testid=summary-table]');
      await page.click('[data-testid=available-switch]');
      await page.waitForURL(/status=available/);
      await seeAll(page);
      await page.waitForFunction(
        () =>
          Number(
            (
              document.querySelectorAll('[data-testid=charts] [data-testid^=chart-] .echart')[8] as
                | HTMLElement
                | undefined
            )?.dataset.series,
          ) === 5,
      );
      await page.waitForFunction(
        (before) => document.querySelector('[data-testid=summary-table]')?.textContent !== before,
        summaryText,
      );
      // the switch lives in the URL: a reload keeps it
      await page.reload();
      await chartsDrawn(page);
      expect(await page.isChecked('[data-testid=available-switch]')).toBe(true);
      expect((await chartsDrawn(page))[8].series).toBe(5);

      // the snapshot list of «Качество данных» flags the partial list
      await page.click('[data-testid=snapshot-list] summary');
      const partialRows = await page.$$eval('[data-testid=snapshot-table] tr[data-partial=true] td', (tds) =>
        tds.map((td) => td.textContent),
      );
      expect(partialRows[0]).toBe('04.09.2026');
      expect(partialRows[2]).toContain('неполный');
      await page.screenshot({ path: `${ARTIFACTS}/status-dashboard.png`, fullPage: true });

      // the flat card: c was reserved from the 2nd and back on sale on the 5th; a changed its area
      const flats = (await (
        await fetch(`${product.url}/api/price-changes?from=2026-09-01&to=2026-09-05&kind=AREA_CHANGED`, {
          headers: auth,
        })
      ).json()) as { rows: { flatId: number; oldArea: number; area: number }[] };
      expect(flats.rows).toHaveLength(1);
      expect(flats.rows[0]).toMatchObject({ oldArea: 40, area: 40.5 });
      await page.goto(`${product.url}/flat?flatId=${flats.rows[0].flatId}`);
      await page.waitForSelector('[data-testid=flat-area-history]');
      expect(await page.$$eval('[data-testid=flat-area-history] tbody tr', (r) => r.length)).toBe(2);
      const found = (await (
        await fetch(`${product.url}/api/search?q=${encodeURIComponent('c')}`, { headers: auth })
      ).json()) as { flats: { flatId: number; externalId: string; projectId: number }[] };
      const c = found.flats.find((f) => f.externalId === 'c' && f.projectId === project.id)!;
      expect(c).toBeDefined();
      await page.goto(`${product.url}/flat?flatId=${c.flatId}`);
      await page.waitForSelector('[data-testid=flat-status-history] tbody tr');
      const states = await page.$$eval('[data-testid=flat-status-history] tbody tr', (rows) =>
        rows.map((r) => (r as HTMLElement).dataset.state),
      );
      expect(states).toEqual(['AVAILABLE', 'ABSENT', 'RESERVED', 'AVAILABLE']);
      await page.screenshot({ path: `${ARTIFACTS}/flat-status-history.png`, fullPage: true });
      // the summaries: the partial day says so and removes nothing; the area change is its own group
      const summaries = (await (await fetch(`${product.url}/api/summaries?limit=100`)).json()) as {
        id: number;
        date: string;
      }[];
      const partialDay = summaries.find((x) => x.date === '2026-09-04')!;
      await page.goto(`${product.url}/summary/${partialDay.id}/project/${project.id}`);
      expect(await page.textContent('[data-testid=partial-notice]')).toContain('Неполный список');
      expect(await page.$('[data-testid=events-REMOVED]')).toBeNull();
      const areaDay = summaries.find((x) => x.date === '2026-09-02')!;
      await page.goto(`${product.url}/summary/${areaDay.id}/project/${project.id}`);
      const areaGroup = await page.waitForSelector('[data-testid=events-AREA_CHANGED]');
      expect(await areaGroup.textContent()).toContain('40,5');
      // the day's summary marks the project whose list was partial
      await page.goto(`${product.url}/summary/${partialDay.id}`);
      await page.waitForSelector('[data-testid=partial-badge]');
      expect(await page.$$('[data-testid=partial-badge]')).toHaveLength(1);
      // the price-changes table filters by «Изменилась площадь» and says the areas
      await page.goto(`${product.url}/tables?from=2026-09-01&to=2026-09-05&kind=AREA_CHANGED`);
      await page.waitForSelector('[data-testid=pc-table] tbody tr');
      expect(await page.textContent('[data-testid=pc-table] tbody')).toContain('40 → 40,5 м²');
    } finally {
      await context.close();
    }
  });
});

describe('sales pace, the market, the comparison and Excel (DESIGN §10.5–10.6)', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    page = await signedIn(context);
  });
  afterAll(() => context.close());

  /** Clicks what downloads a file and reads it back as Excel rows. */
  async function excelOf(selector: string, name: string) {
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const path = join(ARTIFACTS, name);
    await file.saveAs(path);
    return readSheet(readFileSync(path));
  }
  const seriesOf = (id: string) =>
    page.$eval(`[data-testid=chart-${id}] .echart`, (b) => Number((b as HTMLElement).dataset.series));

  it('the dashboard has «Темп продаж» and the index beside the average; the summary table has pace columns and exports to Excel', async () => {
    await page.goto(`${product.url}/`);
    await chartsDrawn(page);
    await page.waitForSelector('[data-testid=pace-figures]');
    const figures = await page.$$eval('[data-testid=pace-figures] > div', (ds) =>
      ds.map((d) => d.textContent),
    );
    expect(figures).toHaveLength(7);
    expect(figures[0]).toMatch(/^В продаже\d+$/);
    expect(figures[3]).toMatch(/^Вымываемость 30 дней(\d+,\d\d\u00a0%|—)$/);
    await expect.poll(() => seriesOf('pace-stock')).toBe(3);
    await expect.poll(() => seriesOf('pace-absorption')).toBe(1);
    // the index: one more series on chart 1, kept in the URL
    const before = await seriesOf('all-rooms');
    await page.click('[data-testid=index-switch]');
    await page.waitForURL(/index=1/);
    await expect.poll(() => seriesOf('all-rooms')).toBe(before + 1);
    await page.reload();
    await chartsDrawn(page);
    await expect.poll(() => seriesOf('all-rooms')).toBe(before + 1);
    // the summary table's pace columns, filled once the rows' pace has come
    const head = await page.textContent('[data-testid=summary-table] thead');
    expect(head).toContain('Вымываемость 30 дн.');
    expect(head).toContain('В продаже, дн.');
    await expect
      .poll(() =>
        page.$$eval('[data-testid=summary-table] tbody tr td:last-child', (tds) =>
          tds.map((t) => t.textContent),
        ),
      )
      .toEqual(expect.arrayContaining([expect.stringMatching(/^\d+(,\d\d)?$/)]));
    const rows = await excelOf('[data-testid=summary-export-xlsx]', 'summary.xlsx');
    expect(rows[0]).toEqual(
      await page.$$eval('[data-testid=summary-table] thead th', (ths) =>
        ths.map((t) => t.textContent?.trim()),
      ),
    );
    expect(rows.length).toBe((await tableRows(page)).length + 1);
    // numbers are numbers: flats on sale, the average ppm; the row's text cells text
    expect(typeof rows[1][4]).toBe('number');
    expect(typeof rows[1][6]).toBe('number');
    expect(typeof rows[1][2]).toBe('string');
    // a header sorts the table (ascending, descending, then as the list had it), the column model's sort
    const counts = () =>
      page.$$eval('[data-testid=summary-table] tbody tr td:nth-child(5)', (tds) =>
        tds.map((t) => Number(t.textContent)),
      );
    const listed = await counts();
    const header = '[data-testid=summary-table] th button:has-text("Квартир в продаже")';
    const ordered = (xs: number[], sign: number) =>
      xs.every((x, i) => i === 0 || sign * (x - xs[i - 1]!) >= 0);
    await page.click(header);
    await expect.poll(async () => ordered(await counts(), 1)).toBe(true);
    await page.click(header);
    await expect.poll(async () => ordered(await counts(), -1)).toBe(true);
    await page.click(header);
    await expect.poll(counts).toEqual(listed);
    // the ppm distribution of the flats on sale: all of them, then the studios alone
    await page.waitForSelector('[data-testid=histogram-ppm]');
    const flats = () =>
      page.$eval('[data-testid=histogram-ppm]', (b) => Number((b as HTMLElement).dataset.flats));
    await expect.poll(flats).toBeGreaterThan(0);
    const all = await flats();
    await page.click('[data-testid=distribution-studio]');
    await expect
      .poll(async () => ((await page.$('[data-testid=distribution-empty]')) ? 0 : flats()))
      .toBeLessThan(all);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-pace-1440.png'), fullPage: true });
    // the project's «Сравнить» opens the comparison with it
    await page.click('[data-testid=compare-link]');
    await page.waitForURL(/\/compare\?projects=\d+$/);
    await expect.poll(() => seriesOf('compare')).toBe(1);
  });

  it("a flat card says where the flat's ppm stands among its project's flats of its room group", async () => {
    await page.goto(`${product.url}/flat?flatId=${await discountedFlat()}`);
    await page.waitForSelector('[data-testid=flat-card]');
    expect(await page.textContent('dd[data-field="Цена м² в проекте"]')).toMatch(
      /^не дороже этой — [\d,]+ % квартир \(.+: \d+ в продаже на \d\d\.\d\d\.\d{4}\)$/,
    );
  });

  it('«Рынок» draws the index net of mix beside the average; a flat card gives its fair price and ten comparables linked to their cards (DESIGN §12.4)', async () => {
    await page.goto(`${product.url}/market`);
    await page.waitForSelector('[data-testid=hedonic-summary]');
    expect(await page.textContent('[data-testid=hedonic-summary]')).toMatch(
      /^За период цены без учёта структуры: [−+]?[\d,]+\s%, средняя цена м²: [−+]?[\d,]+\s%; \d+ квартир в \d+ проектах/,
    );
    await page.locator('[data-testid=market-hedonic]').scrollIntoViewIfNeeded();
    // the index, its interval's two bounds and the average brought to 100; the split's price and mix
    await page.waitForSelector('[data-testid=chart-market-hedonic-index] .echart[data-series="4"]');
    await page.waitForSelector('[data-testid=chart-market-hedonic-split] .echart[data-series="2"]');
    // weekly points when asked: the period's last two years, each point a Monday
    const weekly = page.locator('[data-testid=chart-market-hedonic-index] .echart');
    const monthly = await weekly.getAttribute('data-first');
    expect(monthly).toMatch(/-01$/);
    await page.click('[data-testid=hedonic-step] input[value=week]');
    await page.waitForFunction(
      (before) =>
        document
          .querySelector('[data-testid=chart-market-hedonic-index] .echart')
          ?.getAttribute('data-first') !== before,
      monthly,
    );
    expect(await page.textContent('[data-testid=hedonic-summary]')).toContain('в последнюю неделю');
    for (const date of [await weekly.getAttribute('data-first'), await weekly.getAttribute('data-last')])
      expect(new Date(`${date}T00:00:00Z`).getUTCDay(), String(date)).toBe(1);
    // «Ниже аналогов»: a tab of the table, its flats cheapest against their fair price first, to Excel
    await page.click('[data-testid=market-view-below]');
    await page.waitForURL(/view=below/);
    await page.waitForSelector('[data-testid=below-summary]');
    expect(await page.textContent('[data-testid=below-summary]')).toMatch(
      /^\d+ из \d+ квартир в продаже дешевле справедливой цены на 10 % и больше/,
    );
    const premiums = await page.$$eval('[data-testid=below-table] tbody tr', (trs) =>
      trs.map((tr) =>
        Number(
          (tr.querySelectorAll('td')[9]?.textContent ?? '')
            .replace('−', '-')
            .replace(/[^\d,.-]/g, '')
            .replace(',', '.'),
        ),
      ),
    );
    expect(premiums.length).toBeGreaterThan(0);
    expect(premiums.every((p, i) => p <= -10 && (i === 0 || p >= premiums[i - 1]))).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=below-export-xlsx]'),
    ]);
    expect(readFileSync((await download.path())!).length).toBeGreaterThan(1000);
    await page.goto(`${product.url}/flat?flatId=${await discountedFlat()}`);
    await page.waitForSelector('[data-testid=flat-fair]');
    expect(await page.textContent('[data-testid=flat-fair] dd[data-field=fair]')).toMatch(/^[\d\s]+\s₽$/);
    expect(await page.textContent('[data-testid=flat-fair] dd[data-field=premium]')).toMatch(
      /^[−+]?[\d,]+\s%$/,
    );
    const links = page.locator('[data-testid=flat-comparables] tbody a');
    expect(await links.count()).toBe(10);
    const other = await links.first().textContent();
    await links.first().click();
    await page.waitForURL(new RegExp(`flatId=${other}$`));
    await page.waitForSelector('[data-testid=flat-card]');
  });

  it('«Рынок» ranks, sorts and filters projects, shows developers, and sends two projects to «Сравнение»', async () => {
    await page.goto(`${product.url}/market`);
    await page.waitForSelector('[data-testid=market-row]');
    await expectTitle(page, 'Рынок — Цена метра');
    const column = (label: string) =>
      page.$$eval(
        '[data-testid=market-table] tbody tr',
        (trs, l) =>
          trs.map((tr) => {
            const heads = [...(tr.closest('table')?.querySelectorAll('thead th') ?? [])].map(
              (th) => th.textContent,
            );
            return tr.querySelectorAll('td')[heads.findIndex((h) => h?.startsWith(l))]?.textContent ?? '';
          }),
        label,
      );
    expect((await column('Проект')).length).toBeGreaterThan(5);
    expect(await page.textContent('[data-testid=market-total]')).toMatch(/В продаже\d+/);
    // sorted by stock, largest first, from the header
    await page.click('[data-testid=market-table] thead button:has-text("В продаже")');
    await page.waitForURL(/sort=-stock/);
    // the URL changes before React renders the sorted rows: read them once they are drawn
    const byStock = async () => {
      // a registry-only project has no stock («—»): last in either order
      const stock = (await column('В продаже')).filter((v) => v !== '—').map(Number);
      return stock.length > 5 && stock.every((v, i) => i === 0 || stock[i - 1] >= v);
    };
    await expect.poll(byStock).toBe(true);
    // one class only: the table and the pace chart (the class's kept series, §12.3)
    const classPace = page.waitForResponse(
      (r) =>
        r.url().endsWith('/api/market/pace') &&
        r.request().postDataJSON()?.priceClass === 'business' &&
        r.status() === 200,
    );
    await page.selectOption('[data-testid=market-class]', 'business');
    await page.waitForURL(/class=business/);
    expect((await (await classPace).json()).points.length).toBeGreaterThan(0);
    await expect.poll(() => page.textContent('body')).toContain('Весь рынок · Бизнес: квартиры в продаже');
    // each with its origin after it (the demo's classes are the registry's; a project imported by another
    // test has its class by price, shown without a mark)
    const classes = async () => (await column('Класс')).map((c) => c.replace(/(реестр|вручную)$/, ''));
    await expect.poll(async () => new Set(await classes())).toEqual(new Set(['Бизнес']));
    expect((await column('Класс')).some((c) => c.endsWith('реестр'))).toBe(true);
    await page.selectOption('[data-testid=market-class]', '');
    // developers: unions of their projects
    await page.click('[data-testid=market-view-developers]');
    await page.waitForURL(/view=developers/);
    await expect.poll(() => page.textContent('[data-testid=market-table] thead')).toContain('Проектов');
    const developers = await page.$$eval('[data-testid=market-row]', (r) => r.length);
    expect(developers).toBeGreaterThan(1);
    const excel = await excelOf('[data-testid=market-export-xlsx]', 'market.xlsx');
    expect(excel[0].slice(0, 3)).toEqual(['Застройщик', 'Проектов', 'На дату']);
    expect(excel).toHaveLength(developers + 1);
    expect(excel[1][2]).toBeInstanceOf(Date);
    expect(typeof excel[1][4]).toBe('number');
    await page.click('[data-testid=market-view-projects]');
    await page.waitForSelector('[data-testid=market-row] input[type=checkbox]');
    const boxes = await page.$$('[data-testid=market-row] input[type=checkbox]');
    await boxes[0].check();
    await boxes[1].check();
    await page.screenshot({ path: join(ARTIFACTS, 'market-1440.png'), fullPage: true });
    await page.click('[data-testid=compare-picked]');
    await page.waitForURL(/\/compare\?projects=\d+%2C\d+|\/compare\?projects=\d+,\d+/);
    await expect.poll(() => seriesOf('compare')).toBe(2);
    expect(await page.$$eval('[data-testid=compare-table] tbody tr', (r) => r.length)).toBe(2);
    await expectTitle(page, 'Сравнение проектов — Цена метра');
    // another metric redraws from the URL; a third project comes from the search
    await page.click('[data-testid=compare-metric-index]');
    await page.waitForURL(/metric=index/);
    await expect.poll(() => seriesOf('compare')).toBe(2);
    // the index net of mix (DESIGN §12.4): each project's own, month by month
    await page.click('[data-testid=compare-metric-hedonic]');
    await page.waitForURL(/metric=hedonic/);
    await expect.poll(() => seriesOf('compare')).toBe(2);
    await page.click('[data-testid=compare-metric-index]');
    await page.waitForURL(/metric=index/);
    await page.fill('[data-testid=compare-add]', 'а');
    await page.click('[data-testid=compare-projects] li button');
    await expect.poll(() => seriesOf('compare')).toBe(3);
    const compared = await excelOf('[data-testid=compare-export-xlsx]', 'compare.xlsx');
    expect(compared[0]).toHaveLength(4);
    expect(compared[0][0]).toBe('Дата');
    expect(compared[1][0]).toBeInstanceOf(Date);
    expect(compared.slice(1).some((r) => typeof r[1] === 'number')).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'compare-1440.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: join(ARTIFACTS, 'compare-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('«Рынок» by place (DESIGN §11.3): the map draws a circle per placed project and a click opens it; the district filter and the table by district; a hand edit puts a project on the map', async () => {
    // with no basemap configured the map draws the countries' outlines: nothing asked of another origin
    const elsewhere: string[] = [];
    const watch = (r: { url(): string }) => {
      if (!r.url().startsWith(product.url) && !/^(data|blob):/.test(r.url())) elsewhere.push(r.url());
    };
    page.on('request', watch);
    await page.goto(`${product.url}/market`);
    const map = '[data-testid=market-map]';
    await page.waitForSelector(`${map}[data-basemap=none][data-drawn] canvas`);
    expect(elsewhere).toEqual([]);
    page.off('request', watch);
    await expect
      .poll(() => page.$eval(map, (b) => Number((b as HTMLElement).dataset.points)))
      .toBeGreaterThan(20);
    const points = await page.$eval(map, (b) => Number((b as HTMLElement).dataset.points));
    // of which the registry's projects we have no list of (drawn, not in the table by place)
    const registryPoints = await page.$eval(map, (b) => Number((b as HTMLElement).dataset.registryPoints));
    expect(registryPoints).toBe(1);
    // «Озёрный» has no coordinates: listed under the map
    expect(await page.textContent('[data-testid=market-unplaced]')).toContain('Озёрный');
    // the district filter narrows the table, the map and the URL
    await page.selectOption('[data-testid=market-district]', 'Академический');
    await page.waitForURL(/district=/);
    // a district of that name in Moscow and in Yekaterinburg
    const projectNames = () =>
      page.$$eval('[data-testid=market-row] td:nth-child(2)', (tds) =>
        tds.map((td) => td.textContent).sort(),
      );
    await expect.poll(projectNames).toEqual(['Академический', 'Новые сады']);
    await expect.poll(() => page.$eval(map, (b) => Number((b as HTMLElement).dataset.points))).toBe(2);
    await page.selectOption('[data-testid=market-district]', '');
    // the table by district: a row a district of a city, exported with its name and city
    await page.click('[data-testid=market-view-places]');
    await page.waitForURL(/view=places/);
    await expect.poll(() => page.textContent('[data-testid=market-table] thead')).toContain('Город');
    const districts = await page.$$eval('[data-testid=market-row]', (trs) =>
      trs.map((tr) => [0, 2].map((i) => tr.querySelectorAll('td')[i]?.textContent ?? '')),
    );
    expect(districts).toContainEqual(['Академический', 'Москва']);
    expect(districts).toContainEqual(['Академический', 'Екатеринбург']);
    // a row a district of a city: every demo project's (lists imported by earlier tests may add more)
    expect(districts.length).toBeGreaterThanOrEqual(points - registryPoints + 1);
    const excel = await excelOf('[data-testid=market-export-xlsx]', 'market-districts.xlsx');
    expect(excel[0].slice(0, 3)).toEqual(['Район', 'Проектов', 'Город']);
    expect(excel).toHaveLength(districts.length + 1);
    await page.screenshot({ path: join(ARTIFACTS, 'market-map-1440.png'), fullPage: true });
    // a district's name opens its projects: the district and its city in the URL
    const [ekb] = await page.$$(
      '[data-testid=market-row]:has(td:nth-child(3):text-is("Екатеринбург")) button:text-is("Академический")',
    );
    await ekb.click();
    await page.waitForURL(/city=/);
    expect(decodeURIComponent(page.url())).toMatch(
      /district=Академический.*city=Екатеринбург|city=Екатеринбург.*district=Академический/,
    );
    expect(page.url()).not.toMatch(/view=places/);
    await expect.poll(projectNames).toEqual(['Новые сады']);
    await page.goto(`${product.url}/market`);
    await page.waitForSelector(`${map} canvas`);
    // a click on a circle opens its project's dashboard
    await page.click('[data-testid=market-view-projects]');
    await page.$eval(map, (b) => b.scrollIntoView({ block: 'center' }));
    const pixels = async () =>
      JSON.parse((await page.$eval(map, (b) => (b as HTMLElement).dataset.pixels)) ?? '[]') as number[][];
    const box = (await (await page.$(map))!.boundingBox())!;
    // the cities' projects are clustered at the country's view: a click on a cluster zooms into it, until
    // circles are drawn apart
    await expect
      .poll(
        async () =>
          (await pixels()).length +
          JSON.parse((await page.$eval(map, (b) => (b as HTMLElement).dataset.clusterPixels)) ?? '[]').length,
      )
      .toBeGreaterThan(0);
    for (let i = 0; i < 5 && (await pixels()).length === 0; i++) {
      // the clusters' pixels as the settled map drew them (read while it moved, a click could miss them)
      await page.waitForSelector(`${map}[data-drawn]`);
      const clusters = JSON.parse(
        (await page.$eval(map, (b) => (b as HTMLElement).dataset.clusterPixels)) ?? '[]',
      ) as number[][];
      const zoom = await page.$eval(map, (b) => (b as HTMLElement).dataset.zoom);
      await page.mouse.click(box.x + clusters[0][1], box.y + clusters[0][2]);
      await expect.poll(() => page.$eval(map, (b) => (b as HTMLElement).dataset.zoom)).not.toBe(zoom);
    }
    // the circle drawn last: nothing is drawn over it
    const [id, x, y] = (await pixels()).at(-1)!;
    await page.mouse.click(box.x + x, box.y + y);
    await page.waitForURL(new RegExp(`project=${id}`));
    await chartsDrawn(page);
    // «Где проект»: «Озёрный» gets its coordinates by hand and comes onto the map
    const { token } = await demoSession();
    const found = await fetch(`${product.url}/api/search?q=${encodeURIComponent('Озёрный')}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const ozerny = (await found.json()).projects[0] as { id: number; developerId: number };
    await page.goto(`${product.url}/?developer=${ozerny.developerId}&project=${ozerny.id}`);
    await seeAll(page);
    await page.waitForSelector('[data-testid=place-panel]');
    expect(await page.textContent('[data-testid=place-panel] dd[data-field=district]')).toBe(
      'Верх-Исетский район',
    );
    expect(await page.textContent('[data-testid=place-panel] dd[data-field=coordinates]')).toBe('—');
    await page.click('[data-testid=place-edit]');
    // a latitude out of range is refused with the field named, nothing sent
    await page.fill('[data-testid=place-latitude]', '95');
    await page.fill('[data-testid=place-longitude]', '60,6');
    await page.click('[data-testid=place-form] button[type=submit]');
    expect(await page.textContent('[data-testid=place-errors]')).toContain('Широта');
    await page.fill('[data-testid=place-latitude]', '56,83');
    await page.click('[data-testid=place-form] button[type=submit]');
    await page.waitForSelector('[data-testid=place-panel]');
    expect(await page.textContent('[data-testid=place-panel] dd[data-field=coordinates]')).toBe(
      '56,83, 60,6',
    );
    expect(await page.textContent('[data-testid=place-panel]')).toContain('вручную');
    await page.goto(`${product.url}/market`);
    await page.waitForSelector(`${map}[data-points] canvas`);
    await expect
      .poll(() => page.$eval(map, (b) => Number((b as HTMLElement).dataset.points)))
      .toBe(points + 1);
    const unplaced = await page.$('[data-testid=market-unplaced]');
    expect(unplaced ? await unplaced.textContent() : '').not.toContain('Озёрный');
  });

  it('price changes and discounts export to Excel the rows they show', async () => {
    await page.goto(`${product.url}/tables`);
    await page.waitForFunction(() =>
      /\d/.test(document.querySelector('[data-testid=pc-total] b')?.textContent ?? ''),
    );
    const total = Number((await page.textContent('[data-testid=pc-total] b'))?.replace(/\D/g, ''));
    expect(total).toBeGreaterThan(0);
    const changes = await excelOf('[data-testid=pc-xlsx]', 'price-changes.xlsx');
    expect(changes).toHaveLength(total + 1);
    expect(changes[0][0]).toBe('Дата');
    expect(changes[1][0]).toBeInstanceOf(Date);
    // the area is a number on every row; prices on the price events
    expect(changes.slice(1).every((r) => typeof r[7] === 'number')).toBe(true);
    expect(changes.slice(1).some((r) => typeof r[11] === 'number')).toBe(true);
    await page.goto(`${product.url}/discounts-by-project`);
    await page.waitForSelector('[data-testid=discount-projects] tbody tr');
    const shown = await page.$$eval('[data-testid=discount-projects] tbody tr', (r) => r.length);
    const discounts = await excelOf('[data-testid=discount-projects-export-xlsx]', 'discounts.xlsx');
    expect(discounts).toHaveLength(shown + 1);
    expect(typeof discounts[1][4]).toBe('number');
  });
});

describe('the chessboard (DESIGN §10.7)', () => {
  it('draws a building, colours it by mode, slides over the dates, opens a flat and comes back to its cell; a phone scrolls it; PNG', async () => {
    const context = await newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    const page = await signedIn(context);
    await chartsDrawn(page);
    await page.click('[data-testid=chess-link]');
    await page.waitForURL(/\/chess\?developer=\d+&project=\d+/);
    await page.waitForSelector('[data-testid=chess-board] g[data-flat]');
    await expectTitle(page, 'Шахматка — Цена метра');
    const cells = () => page.$$eval('[data-testid=chess-board] g[data-flat]', (gs) => gs.length);
    const colours = () =>
      page.$$eval('[data-testid=chess-board] g[data-flat]', (gs) => [
        ...new Set(gs.map((g) => g.getAttribute('data-colour'))),
      ]);
    expect(await cells()).toBeGreaterThan(10);
    // ppm: five classes and «выбыла»
    expect(await page.$$eval('[data-testid=chess-legend] > span', (s) => s.length)).toBe(6);
    await page.selectOption('[data-testid=chess-mode]', 'status');
    await page.waitForURL(/mode=status/);
    // the board redraws after the URL changes: wait for its colours
    await expect
      .poll(async () => new Set([...(await colours()), '#22c55e', '#f59e0b', '#d1d5db']).size)
      .toBe(3);
    await expect.poll(() => page.textContent('[data-testid=chess-legend]')).toBe('свободнаброньвыбыла');
    // the slider's first stop: the first list, where nothing is gone yet
    const gone = () => page.$$eval('[data-testid=chess-board] g[data-state=gone]', (gs) => gs.length);
    const goneNow = await gone();
    await page.locator('[data-testid=chess-slider]').fill('0');
    await page.waitForURL(/date=\d{4}-\d\d-\d\d/);
    await expect.poll(gone).toBe(0);
    expect(goneNow).toBeGreaterThan(0);
    await page
      .locator('[data-testid=chess-slider]')
      .fill(String(await page.$eval('[data-testid=chess-slider]', (i) => (i as HTMLInputElement).max)));
    await expect.poll(gone).toBe(goneNow);
    // a cell opens its flat; the card leads back to its cell, outlined
    const flatId = await page.$eval('[data-testid=chess-board] g[data-state=active]', (g) =>
      g.getAttribute('data-flat'),
    );
    await page.click(`[data-testid=chess-board] g[data-flat="${flatId}"]`);
    await page.waitForURL(new RegExp(`/flat\\?flatId=${flatId}$`));
    await page.click('[data-testid=flat-chess-link]');
    await page.waitForURL(new RegExp(`flat=${flatId}`));
    await page.waitForSelector(`[data-testid=chess-board] g[data-flat="${flatId}"] rect[stroke="#1d4ed8"]`);
    // PNG of the board
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=chess-png]')]);
    const path = join(ARTIFACTS, 'chess.png');
    await png.saveAs(path);
    const bytes = readFileSync(path);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(10_000);
    await page.screenshot({ path: join(ARTIFACTS, 'chess-1440.png'), fullPage: true });
    // a phone: the board scrolls sideways inside its frame, the page does not
    await page.setViewportSize({ width: 390, height: 800 });
    await page.waitForTimeout(200);
    const widths = await page.$eval('[data-testid=chess-frame]', (f) => ({
      frame: f.clientWidth,
      board: f.scrollWidth,
      page: document.documentElement.scrollWidth,
    }));
    expect(widths.board).toBeGreaterThan(widths.frame);
    expect(widths.page).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ARTIFACTS, 'chess-390.png'), fullPage: true });
    await context.close();
  });
});

describe('sources (/sources)', () => {
  it('collects a registry source (наш.дом.рф) with its progress shown while it runs', async () => {
    const { createServer } = await import('node:http');
    // a registry of six objects in one region: 1 list page, then each object's detail and sales at ≤ 2/s
    const ids = [990_001, 990_002, 990_003, 990_004, 990_005, 990_006];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const json = (body: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname.endsWith('/kn/object'))
        return json({
          data: {
            total: ids.length,
            list: ids.map((objId) => ({
              objId,
              objCommercNm: `ЖК Проверка ${objId}`,
              objAddr: 'г. Проверочный, ул. Тестовая, 1',
              objElemLivingCnt: 50,
              objReady100PercDt: '2028-12-31',
              developer: { shortName: 'СЗ Проверка' },
            })),
          },
        });
      const m = /\/object\/(\d+)(\/sales_agg)?$/.exec(url.pathname);
      if (!m) return res.writeHead(404).end();
      if (m[2]) return json({ data: { apartmentsAggData: { total: 50, realised: 10 } } });
      return json({ data: { objId: Number(m[1]), objLkClassDesc: 'Комфорт' } });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await signedIn(context, '/sources');
      await page.waitForSelector('[data-testid=empty-state], [data-testid=sources-table]');
      await page.fill('input[name=name]', 'Реестр проверки');
      await page.selectOption('[data-testid=source-kind]', 'domrf');
      await page.fill('input[name=url]', `http://127.0.0.1:${port}/api/kn/object?place=99`);
      await page.click('form[aria-label="Добавить источник"] button[type=submit]');
      const row = page.locator('[data-testid=source-row]', { hasText: 'Реестр проверки' });
      await row.waitFor();
      await row.getByRole('button', { name: 'Собрать' }).click();
      // 13 requests at two a second: the run's progress shows meanwhile
      const progress = row.locator('[data-testid=source-progress]');
      await progress.waitFor();
      expect(await progress.textContent()).toMatch(/^запросов \d+, объектов \d+$/);
      await page.screenshot({ path: `${ARTIFACTS}/sources-registry-progress.png` });
      await row.locator('[data-testid=source-status]', { hasText: 'собран' }).waitFor({ timeout: 30_000 });
      expect(await row.textContent()).toContain('6 объектов');
    } finally {
      await context.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('adds a source with checks, collects it now, shows its runs, edits it', async () => {
    const { createServer } = await import('node:http');
    const feed = readFileSync(new URL('../packages/server/test/fixtures/yrl/feed.xml', import.meta.url));
    const server = createServer((req, res) => {
      if (req.url === '/feed.xml') res.writeHead(200).end(feed);
      else res.writeHead(500).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await signedIn(context, '/sources');
      await expectTitle(page, 'Источники — Цена метра');
      await page.waitForSelector('[data-testid=empty-state], [data-testid=sources-table]');
      // the form names what is wrong before anything is sent
      await page.click('form[aria-label="Добавить источник"] button[type=submit]');
      expect(await page.textContent('form[aria-label="Добавить источник"] [role=alert]')).toBe(
        'Название: введите его',
      );
      await page.fill('input[name=name]', 'Фид Пионера');
      await page.fill('input[name=url]', 'ftp://x');
      await page.click('form[aria-label="Добавить источник"] button[type=submit]');
      expect(await page.textContent('form[aria-label="Добавить источник"] [role=alert]')).toContain(
        'http://',
      );
      await page.fill('input[name=url]', `http://127.0.0.1:${port}/feed.xml`);
      await page.click('form[aria-label="Добавить источник"] button[type=submit]');
      await page.waitForSelector('[data-testid=source-row]');
      const row = page.locator('[data-testid=source-row]', { hasText: 'Фид Пионера' });
      await row.getByRole('button', { name: 'Собрать' }).click();
      await row.locator('[data-testid=source-status]', { hasText: 'собран' }).waitFor();
      expect(await row.textContent()).toContain('5');
      await row.getByRole('button', { name: 'Фид Пионера', exact: true }).click();
      await page.waitForSelector('[data-testid=source-runs] tbody tr[data-status=done]');
      await page.screenshot({ path: `${ARTIFACTS}/sources.png`, fullPage: true });
      // edit: the form takes the source's values; a bad address is named, a good one saved
      await row.getByRole('button', { name: 'Изменить «Фид Пионера»' }).click();
      const edit = page.locator('form[aria-label="Изменить источник"]');
      expect(await edit.locator('input[name=name]').inputValue()).toBe('Фид Пионера');
      await edit.locator('input[name=project]').fill('ЖК Тестовый');
      await edit.locator('input[name=url]').fill('нет');
      await edit.locator('button[type=submit]').click();
      expect(await edit.locator('[role=alert]').textContent()).toContain('Адрес');
      await edit.locator('input[name=url]').fill(`http://127.0.0.1:${port}/feed.xml`);
      await edit.locator('button[type=submit]').click();
      await page.waitForSelector('form[aria-label="Добавить источник"]');
    } finally {
      await context.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

// the profile test changes the demo password: it stays last
describe('watchlists and alerts (issue 17)', () => {
  it('watches a flat from its card and a segment from the dashboard; an import raises alerts under the bell and in «Избранное»; the profile gives a Telegram code', async () => {
    const { token } = await demoSession();
    const api = (url: string, init: { method?: string; body?: unknown } = {}) =>
      fetch(`${product.url}/api${url}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    const lot = (id: string, rooms: number, area: number, price: number) => ({
      id,
      building: '1',
      section: '1',
      floor: 3,
      number: id,
      rooms,
      area,
      price,
    });
    const day = (date: string, flats: object[]) => ({
      date,
      developer: 'Избранный застройщик',
      project: 'Дом у пруда',
      flats,
    });
    const first = await api('/ingest/snapshots', {
      method: 'POST',
      body: [day('2026-10-01', [lot('w1', 1, 40, 8_000_000), lot('w2', 2, 60, 12_000_000)])],
    });
    expect(first.status).toBe(200);
    const found: { flats: { flatId: number; externalId: string; projectName: string }[] } = await (
      await api('/search?q=w1')
    ).json();
    const id = found.flats.find((f) => f.externalId === 'w1' && f.projectName === 'Дом у пруда')?.flatId;
    expect(id).toBeTruthy();
    const context = await newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedIn(context);
    // the flat card: watch it with a threshold
    await page.goto(`${product.url}/flat?flatId=${id}`);
    await page.click('[data-testid=flat-watch-add]');
    await page.fill('[data-testid=rule-threshold]', '0');
    await page.click('[role=dialog] button:has-text("Сохранить")');
    await expect
      .poll(() => page.textContent('[role=dialog] [role=alert]'))
      .toBe('Порог изменения цены — число от 0,1 до 100 %');
    await page.fill('[data-testid=rule-threshold]', '3');
    await page.click('[role=dialog] button:has-text("Сохранить")');
    await page.waitForSelector('[data-testid=flat-watched]');
    // the dashboard of its project: watch one-room flats
    const projects = await (await api('/developers')).json();
    const developer = projects.find((d: { name: string }) => d.name === 'Избранный застройщик');
    const [project] = await (await api(`/projects?developerId=${developer.id}`)).json();
    await page.goto(`${product.url}/?developer=${developer.id}&project=${project.id}`);
    await page.click('[data-testid=segment-watch]');
    await page.selectOption('[data-testid=watch-rooms]', 'one');
    await page.click('[role=dialog] button:has-text("Сохранить")');
    await page.waitForSelector('[role=dialog]', { state: 'detached' });
    // the next list: w1 cut by 5 %, a new one-room flat; the alerts are computed after the import
    const second = await api('/ingest/snapshots', {
      method: 'POST',
      body: [
        day('2026-10-02', [
          lot('w1', 1, 40, 7_600_000),
          lot('w2', 2, 60, 12_000_000),
          lot('w3', 1, 38, 7_000_000),
        ]),
      ],
    });
    expect(second.status).toBe(200);
    await expect.poll(async () => (await (await api('/alerts')).json()).unread, { timeout: 15_000 }).toBe(3);
    await page.goto(`${product.url}/watchlist`);
    await expectTitle(page, 'Избранное — Цена метра');
    await expect.poll(() => page.textContent('[data-testid=alerts-unread]')).toBe('3');
    expect(await page.$$eval('[data-testid=watch-table] tbody tr', (rows) => rows.length)).toBe(2);
    const latest = (
      await page.$$eval('[data-testid=watch-latest]', (cells) => cells.map((c) => c.textContent))
    ).join('|');
    expect(latest.replace(/\u00a0/g, ' ')).toContain('Подешевела: 8 000 000 → 7 600 000 ₽');
    expect(latest).toContain('Новая в продаже');
    expect(await page.$$eval('[data-testid=alert-list] li', (li) => li.length)).toBe(3);
    await page.screenshot({ path: join(ARTIFACTS, 'watchlist-1440.png'), fullPage: true });
    // the bell lists them; «прочитать все» clears the badge
    await page.click('[data-testid=alerts-bell]');
    await page.waitForSelector('[data-testid=alerts-menu] li');
    expect(await page.textContent('[data-testid=alerts-menu]')).toContain('Подешевела');
    await page.click('[data-testid=alerts-read-all]');
    await page.waitForSelector('[data-testid=alerts-unread]', { state: 'detached' });
    // stop watching the segment
    await page.click('[data-testid=watch-table] tbody tr:first-child [data-testid=watch-remove]');
    await expect.poll(() => page.$$eval('[data-testid=watch-table] tbody tr', (rows) => rows.length)).toBe(1);
    // a phone: the table turns into cards
    await page.setViewportSize({ width: 390, height: 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'watchlist-390.png'), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // the profile: a one-time code for the bot
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${product.url}/profile`);
    expect(await page.textContent('[data-testid=telegram-status]')).toContain('Чат не привязан');
    await page.click('[data-testid=telegram-code-button]');
    expect(await page.textContent('[data-testid=telegram-code]')).toMatch(/^\/start \d{8}$/);
    await context.close();
  });
});

describe('a team: roles, users, the journal (DESIGN §11.5)', () => {
  const asideLabels = (page: Page) =>
    page.$$eval('aside nav a', (links) => links.map((a) => a.textContent?.trim() ?? ''));

  it('an admin makes a viewer by a one-time link; the viewer sees no sources, no import, no watchlist, and a direct address says «нет доступа»', async () => {
    const adminContext = await newContext({ viewport: { width: 1440, height: 900 } });
    const admin = await signedIn(adminContext, '/users');
    await admin.waitForSelector('[data-testid=users-table] [data-testid=user-demo]');
    expect(await asideLabels(admin)).toEqual(expect.arrayContaining(['Источники', 'Пользователи', 'Журнал']));
    await admin.fill('form[aria-label="Новый пользователь"] input[name=username]', 'viewer1');
    await admin.selectOption('[data-testid=new-user-role]', 'viewer');
    await admin.click('form[aria-label="Новый пользователь"] button[type=submit]');
    const link = (await (await admin.waitForSelector('[data-testid=invite-link]')).textContent())!.trim();
    expect(link).toMatch(new RegExp(`^${product.url}/invite/[A-Za-z0-9_-]{20,}$`));
    await admin.waitForSelector('[data-testid=user-viewer1] >> text=Ждёт входа по ссылке');
    await admin.screenshot({ path: join(ARTIFACTS, 'users-1440.png'), fullPage: true });

    // the viewer opens the link in their own browser, sets a password and is signed in
    const viewerContext = await newContext({ viewport: { width: 1440, height: 900 } });
    const viewer = await viewerContext.newPage();
    await viewer.goto(link);
    expect(await (await viewer.waitForSelector('[data-testid=invite-username]')).textContent()).toBe(
      'viewer1',
    );
    await viewer.fill('input[name=password]', 'viewer-pass-1');
    await viewer.fill('input[name=repeat]', 'viewer-pass-1');
    await viewer.click('form[aria-label="Пароль по приглашению"] button[type=submit]');
    await viewer.waitForURL(`${product.url}/`);
    await chartsDrawn(viewer);
    const labels = await asideLabels(viewer);
    expect(labels).toContain('Анализ');
    for (const hidden of ['Источники', 'Пользователи', 'Журнал', 'Избранное'])
      expect(labels).not.toContain(hidden);
    expect(await viewer.$('[data-testid=alerts-bell]')).toBeNull();
    expect(await viewer.$('[data-testid=segment-watch]')).toBeNull();
    expect(await viewer.$('[data-testid=place-edit]')).toBeNull();
    // a used link is spent: another browser opening it is told so
    const guestContext = await newContext();
    const guest = await guestContext.newPage();
    await guest.goto(link);
    expect(await (await guest.waitForSelector('[data-testid=invite-error]')).textContent()).toMatch(
      /ссылка недействительна/,
    );
    await guestContext.close();
    // a direct address: a clear page, not the page
    for (const path of ['/sources', '/users', '/audit', '/watchlist']) {
      await viewer.goto(`${product.url}${path}`);
      const box = await viewer.waitForSelector('[data-testid=no-access]');
      expect(await box.textContent()).toContain('нет доступа');
      expect(await viewer.$('[data-testid=sources-table]')).toBeNull();
    }
    await viewer.screenshot({ path: join(ARTIFACTS, 'no-access-1440.png'), fullPage: true });
    // the API says the same to anything the page might have tried
    const token = await viewer.evaluate(() => JSON.parse(localStorage.getItem('user')!).token as string);
    const run = await fetch(`${product.url}/api/sources`, { headers: { authorization: `Bearer ${token}` } });
    expect(run.status).toBe(403);
    const ingest = await fetch(`${product.url}/api/ingest/snapshots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '[]',
    });
    expect(ingest.status).toBe(403);

    // the viewer's profile lists this device; the admin's journal has both steps
    await viewer.goto(`${product.url}/profile`);
    await viewer.waitForSelector('[data-testid=device-session] >> text=это устройство');
    expect(await viewer.textContent('[data-testid=profile-role]')).toBe('Наблюдатель');
    await admin.goto(`${product.url}/audit?action=user.create`);
    await admin.waitForSelector('[data-testid=audit-table] tr[data-action="user.create"] >> text=viewer1');
    await admin.selectOption('[data-testid=audit-action]', 'user.invite_accept');
    await admin.waitForURL(/action=user\.invite_accept/);
    await admin.waitForSelector(
      '[data-testid=audit-table] tr[data-action="user.invite_accept"] >> text=viewer1',
    );
    await admin.screenshot({ path: join(ARTIFACTS, 'audit-1440.png'), fullPage: true });

    // disabled by the admin, the viewer's next request lands on /login
    await admin.goto(`${product.url}/users`);
    await admin.click('[data-testid=user-toggle-viewer1]');
    await admin.waitForSelector('[data-testid=user-viewer1] >> text=Отключён');
    await viewer.goto(`${product.url}/market`);
    await viewer.waitForURL(/\/login\?redirect=/);
    // the last admin cannot be switched off: the server's refusal is shown
    await admin.click('[data-testid=user-toggle-demo]');
    await admin.waitForSelector('text=последний администратор');
    await viewerContext.close();
    await adminContext.close();
  });
});

describe('profile', () => {
  it('changes the password with checks; the other session is signed out; the new password signs in', async () => {
    const other = await newContext();
    const otherPage = await signedIn(other);
    const context = await newContext();
    const page = await signedIn(context, '/profile');
    await expectTitle(page, 'Профиль — Цена метра');
    const form = (current: string, next: string, repeat: string) =>
      (async () => {
        await page.fill('input[name=currentPassword]', current);
        await page.fill('input[name=newPassword]', next);
        await page.fill('input[name=repeatPassword]', repeat);
        await page.click('form[aria-label="Смена пароля"] button[type=submit]');
      })();
    await form('demo', 'short', 'short');
    expect(await page.textContent('[data-testid=password-error]')).toBe('Новый пароль: не короче 8 символов');
    await form('wrong-current', 'new-demo-pass', 'new-demo-pass');
    await page.waitForSelector('[data-testid=password-error] >> text=Текущий пароль');
    await form('demo', 'new-demo-pass', 'new-demo-pass');
    await page.waitForSelector('[data-testid=password-done]');
    await page.screenshot({ path: join(ARTIFACTS, 'profile-1440.png'), fullPage: true });
    // the other browser's session was closed: its next call is a 401 and it lands on /login
    await otherPage.goto(`${product.url}/?type=FACING`);
    await otherPage.waitForURL(/\/login\?redirect=/);
    // this one still works, then signs out and back in with the new password
    await page.goto(`${product.url}/`);
    await chartsDrawn(page);
    await page.click('[data-testid=logout]');
    await page.waitForURL(/\/login$/);
    await page.fill('input[name=username]', 'demo');
    await page.fill('input[name=password]', 'new-demo-pass');
    await page.click('button[type=submit]');
    await page.waitForURL(`${product.url}/`);
    await other.close();
    await context.close();
  });
});
