import type { Page } from 'playwright-core';

// How the bench sees the dashboard drawn (DESIGN §12.2): the first screen, then the page scrolled through.

/** Two animation frames on: what was drawn is painted. */
export const afterPaint = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((done) =>
        requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now()))),
      ),
  );

/**
 * Every chart in the viewport drawn and no block in it still loading (DESIGN §12.2: what is below it is
 * drawn, and asked for, when scrolled to).
 */
function chartsInViewDrawn(page: Page, timeout = 30_000) {
  return page.waitForFunction(
    () => {
      const boxes = Array.from(document.querySelectorAll<HTMLElement>('.echart')).filter((b) => {
        const r = b.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
      });
      const busy = Array.from(document.querySelectorAll('[aria-busy=true]')).some((b) => {
        const r = b.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
      });
      return (
        document.querySelectorAll('[data-testid=charts] .echart').length === 9 &&
        !busy &&
        boxes.every(
          (b) =>
            (b.dataset.series !== undefined || b.dataset.flats !== undefined) && b.querySelector('canvas'),
        )
      );
    },
    undefined,
    { timeout },
  );
}

/** The dashboard's first screen drawn: the charts in the viewport, painted. */
export async function firstScreenDrawn(page: Page, timeout = 30_000) {
  await chartsInViewDrawn(page, timeout);
  return afterPaint(page);
}

/**
 * The whole dashboard drawn as a reader scrolls it a screen at a time: at each screen its charts drawn,
 * at the end the nine charts, «Темп продаж», the distribution and the table. The time from the first
 * scroll, and the page back at its top.
 */
export async function wholePageDrawn(page: Page, timeout = 30_000) {
  const started = await page.evaluate(() => performance.now());
  while (
    await page.evaluate(() => window.scrollY + innerHeight < document.documentElement.scrollHeight - 1)
  ) {
    await page.evaluate(() => window.scrollBy(0, innerHeight));
    await chartsInViewDrawn(page, timeout);
  }
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll<HTMLElement>('[data-testid=charts] .echart')).every((b) =>
        b.querySelector('canvas'),
      ) &&
      document.querySelectorAll('[data-testid=summary-table] tbody tr').length > 0 &&
      (document.querySelector('[data-testid=chart-pace-stock] .echart') as HTMLElement | null)?.dataset
        .series === '3' &&
      Number((document.querySelector('[data-testid=histogram-ppm]') as HTMLElement | null)?.dataset.flats) >
        0,
    undefined,
    { timeout },
  );
  const drawn = (await afterPaint(page)) - started;
  await page.evaluate(() => window.scrollTo(0, 0));
  return drawn;
}
