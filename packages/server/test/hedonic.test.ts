import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FIT_STEP_PROJECTS,
  fitSums,
  fitSumsSteps,
  fittedLnPpm,
  fitWindow,
  type HedonicObservation,
  projectPeriodSums,
} from '../src/analytics/hedonic.js';
import { comparables, kmBetween } from '../src/analytics/hedonic-fair.js';
import {
  HEDONIC_WINDOW,
  hedonicIndex,
  linksOfSums,
  linksOfSumsSteps,
} from '../src/analytics/hedonic-index.js';
import { monthDay, monthOfDay } from '../src/analytics/hedonic-observations.js';
import { sweepSolve } from '../src/analytics/hedonic-solve.js';
import { createRandom } from '../src/demo/random.js';
import { generateMarket } from './hedonic-market.js';

// Issue 45's proof of the model (DESIGN §12.4) on generated markets: planted coefficients, a planted
// monthly trend per city, a mix that moves (cheap lots sell first, a dear project launches in month 9).

const MONTHS = 24;
const market = generateMarket({
  seed: 45,
  months: MONTHS,
  cities: [
    { trend: 0.008, level: Math.log(300_000) + 0.7 },
    { trend: -0.003, level: Math.log(180_000) + 0.7 },
  ],
  projectsPerCity: 10,
  flatsPerProject: 150,
  launchMonth: 9,
});
const ofCity = (city: number) => market.observations.filter((o) => o.city === city);
const indexOf = (city: number) => hedonicIndex(ofCity(city), 0, MONTHS - 1);

describe('the hedonic index on a generated market (DESIGN §12.4)', () => {
  it('recovers each city’s planted trend within ±0.3 pp a month, where the average ppm misses it by more', () => {
    for (const city of [0, 1]) {
      const planted = market.cities[city].trend * 100;
      const { points } = indexOf(city);
      expect(points).toHaveLength(MONTHS);
      const misses = points.slice(1).map((p) => Math.abs(p.change! - planted));
      expect(Math.max(...misses)).toBeLessThanOrEqual(0.3);
      const avgMisses = points
        .slice(1)
        .map((p, i) => Math.abs((p.avgMeterPrice / points[i].avgMeterPrice - 1) * 100 - planted));
      expect(Math.max(...avgMisses)).toBeGreaterThan(0.3);
      // the split: price + mix make up the average's change
      for (const [i, p] of points.slice(1).entries()) {
        const avgChange = p.avgMeterPrice / points[i].avgMeterPrice;
        expect((1 + p.priceEffect! / 100) * (1 + p.mixEffect! / 100)).toBeCloseTo(avgChange, 2);
      }
    }
  });

  it('the dear launch in month 9 moves the first city’s average, not its index', () => {
    const { points } = indexOf(0);
    const launch = points[9];
    expect(launch.mixEffect!).toBeGreaterThan(1);
    expect(Math.abs(launch.priceEffect! - 0.8)).toBeLessThanOrEqual(0.3);
    expect(launch.projects).toBe(points[8].projects + 1);
  });

  it('the 95 % interval covers the planted change in at least 90 % of months', () => {
    for (const city of [0, 1]) {
      const { points } = indexOf(city);
      const planted = 1 + market.cities[city].trend;
      const covered = points.slice(1).filter((p, i) => {
        const target = points[i].index * planted;
        return p.low <= target && target <= p.high;
      });
      expect(covered.length / (points.length - 1)).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('a held-out flat’s fair price is within 2 % of its planted price', () => {
    const last = MONTHS - 1;
    const random = createRandom(7);
    const candidates = market.flats.filter((f) =>
      market.observations.some((o) => o.flat === f.flat && o.period === last),
    );
    const held = new Set(Array.from({ length: 40 }, () => random.pick(candidates).flat));
    // the flat's segment: its city
    const fits = market.cities.map(
      (_, city) =>
        fitWindow(
          ofCity(city).filter((o) => !held.has(o.flat)),
          last - HEDONIC_WINDOW + 1,
          last,
        )!,
    );
    for (const f of market.flats.filter((x) => held.has(x.flat))) {
      const ln = fittedLnPpm(fits[f.city], { ...f, period: last, keysBand: market.keysBand(f, last) })!;
      const fair = Math.exp(ln) * f.area;
      expect(Math.abs(fair / market.plantedPrice(f, last) - 1)).toBeLessThan(0.02);
    }
  });
});

describe('the hedonic index’s properties', () => {
  const small = generateMarket({
    seed: 3,
    months: 8,
    cities: [{ trend: 0.01, level: 12.5 }],
    projectsPerCity: 4,
    flatsPerProject: 30,
  }).observations;
  const bytes = (obs: readonly HedonicObservation[]) => JSON.stringify(hedonicIndex(obs, 0, 7, 6));

  it('the same lists in another order give the same bytes', () => {
    const expected = bytes(small);
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        const random = createRandom(seed);
        const shuffled = [...small];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = Math.floor(random.next() * (i + 1));
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        expect(bytes(shuffled)).toBe(expected);
      }),
      { numRuns: 20 },
    );
  });

  it('is unchanged when every price is scaled by a constant', () => {
    const base = hedonicIndex(small, 0, 7, 6).points;
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), (scale) => {
        const scaled = hedonicIndex(
          small.map((o) => ({ ...o, price: o.price * scale })),
          0,
          7,
          6,
        ).points;
        scaled.forEach((p, i) => {
          expect(Math.abs(p.index / base[i].index - 1)).toBeLessThan(1e-10);
          expect(Math.abs(p.high - p.low - (base[i].high - base[i].low))).toBeLessThan(1e-9);
          expect(p.observations).toBe(base[i].observations);
        });
      }),
      { numRuns: 20 },
    );
  });

  it('a project with too few observations, or none in the period, changes nothing but the count left out', () => {
    const base = hedonicIndex(small, 0, 7, 6);
    const lonely = small
      .filter((o) => o.project === 1 && o.period === 7)
      .slice(0, 4)
      .map((o) => ({ ...o, project: 99, flat: o.flat + 1e6 }));
    const withLonely = hedonicIndex([...small, ...lonely], 0, 7, 6);
    expect(JSON.stringify(withLonely.points)).toBe(JSON.stringify(base.points));
    expect(withLonely.dropped).toBe(base.dropped + 1);
    const later = small
      .filter((o) => o.project === 1)
      .map((o) => ({ ...o, project: 98, period: o.period + 20 }));
    expect(JSON.stringify(hedonicIndex([...small, ...later], 0, 7, 6))).toBe(JSON.stringify(base));
  });
});

describe('the fits in steps (a server fits in slices of its thread, lib/steps.ts)', () => {
  it('are the same fits and links to the bit, a step at least every FIT_STEP_PROJECTS projects', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 90 }),
        fc.nat(),
        fc.integer({ min: 0, max: 5 }),
        (projects, seed, to) => {
          const obs = generateMarket({
            seed,
            months: 6,
            cities: [{ trend: 0.005, level: 12 }],
            projectsPerCity: projects,
            flatsPerProject: 6,
          }).observations;
          const sums = projectPeriodSums(obs);
          const steps = fitSumsSteps(sums, 0, 5);
          let yielded = 0;
          let r = steps.next();
          for (; !r.done; r = steps.next()) yielded++;
          const fit = fitSums(sums, 0, 5);
          expect(JSON.stringify(r.value && { ...r.value, covariance: r.value.covariance(5, 4) })).toBe(
            JSON.stringify(fit && { ...fit, covariance: fit.covariance(5, 4) }),
          );
          if (fit) expect(yielded).toBeGreaterThanOrEqual(1 + Math.floor(fit.projects / FIT_STEP_PROJECTS));
          const links = linksOfSumsSteps(sums, 0, to, 4);
          let linkSteps = 0;
          let l = links.next();
          for (; !l.done; l = links.next()) linkSteps++;
          expect(JSON.stringify(l.value)).toBe(JSON.stringify(linksOfSums(sums, 0, to, 4)));
          // the sort, then each window's fit in its own steps
          expect(linkSteps).toBeGreaterThanOrEqual(1 + l.value.length);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('the least squares of the model', () => {
  it('leaves out a column the ones before it explain, and solves the rest exactly', () => {
    // columns: a, b, a + b (aliased), c
    const rows = [
      [1, 0, 1, 2],
      [0, 1, 1, 1],
      [1, 1, 2, 0],
      [2, 1, 3, 1],
      [1, 3, 4, 5],
    ];
    const y = [3, 2, 4, 6, 10];
    const k = 4;
    const xtx = new Float64Array(k * k);
    const xty = new Float64Array(k);
    let yty = 0;
    rows.forEach((r, n) => {
      for (let i = 0; i < k; i++) {
        xty[i] += r[i] * y[n];
        for (let j = 0; j < k; j++) xtx[i * k + j] += r[i] * r[j];
      }
      yty += y[n] * y[n];
    });
    const solved = sweepSolve(xtx, xty, yty, k);
    expect(solved.rank).toBe(3);
    expect(Number.isNaN(solved.coefficients[2])).toBe(true);
    // the residuals are orthogonal to every kept column
    const fitted = rows.map(
      (r) => r[0] * solved.coefficients[0] + r[1] * solved.coefficients[1] + r[3] * solved.coefficients[3],
    );
    for (const col of [0, 1, 3]) {
      const dot = rows.reduce((s, r, n) => s + r[col] * (y[n] - fitted[n]), 0);
      expect(Math.abs(dot)).toBeLessThan(1e-9);
    }
    const ssr = y.reduce((s, v, n) => s + (v - fitted[n]) ** 2, 0);
    expect(solved.residual).toBeCloseTo(ssr, 9);
  });
});

describe('comparables (DESIGN §12.4)', () => {
  it('kilometres between two points: Moscow to Saint Petersburg', () => {
    const km = kmBetween(
      { latitude: 55.7558, longitude: 37.6173 },
      { latitude: 59.9343, longitude: 30.3351 },
    );
    expect(km).toBeGreaterThan(630);
    expect(km).toBeLessThan(640);
    expect(kmBetween({ latitude: 55, longitude: 37 }, { latitude: 55, longitude: 37 })).toBe(0);
  });

  it('the nearest first, the flat itself left out; a twin needs no adjustment, a larger flat one of β·Δln(area)', () => {
    const observations = generateMarket({
      seed: 9,
      months: 4,
      cities: [{ trend: 0.01, level: 12.5 }],
      projectsPerCity: 3,
      flatsPerProject: 30,
    }).observations;
    const fit = fitWindow(observations, 0, 3)!;
    const target = observations.find((o) => o.period === 3)!;
    const twin = { ...target, flat: 1, price: target.price * 1.1, rooms: 1, km: 0 };
    const larger = { ...target, flat: 2, area: target.area * 1.5, rooms: 1, km: 0 };
    const far = { ...target, flat: 3, rooms: 1, km: 30 };
    const found = comparables(fit, target, [far, larger, { ...target, rooms: 1, km: 0 }, twin], 3);
    expect(found.map((c) => c.candidate.flat)).toEqual([1, 2, 3]);
    expect(found[0].adjustment).toBeCloseTo(0, 10);
    expect(found[0].adjustedPrice).toBeCloseTo(twin.price, 4);
    const lnArea = fit.beta[fit.beta.length - 1];
    expect(found[1].adjustment).toBeCloseTo((Math.exp(-lnArea * Math.log(1.5)) - 1) * 100, 8);
  });
});

describe('a month’s day of observation (§10.1)', () => {
  const d = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
  const month = (iso: string) => monthOfDay(d(iso));
  const dates = ['2026-01-10', '2026-02-25', '2026-05-03', '2026-05-20'].map(d);
  it.each([
    ['January: its end, carried from the 10th', '2026-01-15', '2026-01-31'],
    ['February: its end (the list of the 25th carries on)', '2026-02-01', '2026-02-28'],
    ['March: the 28th, as far as February’s list carries', '2026-03-01', '2026-03-28'],
    ['April: no day with data', '2026-04-01', null],
    ['May: the project’s last list, not past it', '2026-05-01', '2026-05-20'],
    ['December 2025: before the first list', '2025-12-01', null],
  ])('%s', (_, inMonth, want) => {
    const day = monthDay(dates, month(inMonth), 31);
    expect(day === null ? null : new Date(day * 86_400_000).toISOString().slice(0, 10)).toBe(want);
  });
});
