import { FACINGS, type Facing, SETTLEMENT_DONE } from '@cena-metra/contract';
import { drain, type Steps } from '../lib/steps.js';
import { sweepSolve } from './hedonic-solve.js';

/**
 * The hedonic model of DESIGN §12.4, one window: least squares of ln(price per m²) on period dummies and
 * the flat's characteristics, with a fixed effect per project (its location and class) taken out by
 * demeaning within the project. Pure: observations in, coefficients out.
 *
 * An observation is one flat in one period (a month, or a week when asked): its record on the period's last
 * day with data. Its characteristics, each a category against a base left out (the base in brackets):
 * rooms group (one room), ln(area), floor band (not first nor top), finish (без отделки), months to keys
 * (done). Projects with fewer than `minObservations` observations in the window are left out and counted.
 */

/** Rooms group codes: studio, one, two, three and more (the product's groups). */
export const roomGroupOf = (rooms: number): number => Math.min(3, Math.max(0, rooms));

/** Floor bands: 0 neither first nor top, 1 first, 2 top, 3 unknown. */
export function floorBandOf(floor: number | null, topFloor: number | null): number {
  if (floor === null) return 3;
  if (floor <= 1) return 1;
  if (topFloor !== null && floor >= topFloor && topFloor > 1) return 2;
  return 0;
}

/** Months to keys bands: 0 done, 1 up to 6, 2 6–12, 3 12–24, 4 over 24, 5 unknown. */
export function keysBandOf(settlementDate: string | null, periodEndDay: number): number {
  if (settlementDate === null) return 5;
  if (settlementDate === SETTLEMENT_DONE) return 0;
  const day = settlementDay(settlementDate);
  if (!Number.isFinite(day)) return 5;
  const months = (day - periodEndDay) / (365.25 / 12);
  if (months <= 0) return 0;
  if (months <= 6) return 1;
  if (months <= 12) return 2;
  if (months <= 24) return 3;
  return 4;
}

/** Settlement dates as days, parsed once each (a market has a few thousand of them). */
const settlementDays = new Map<string, number>();
function settlementDay(date: string): number {
  let day = settlementDays.get(date);
  if (day === undefined) {
    day = Date.parse(`${date}T00:00:00Z`) / 86_400_000;
    if (settlementDays.size > 100_000) settlementDays.clear();
    settlementDays.set(date, day);
  }
  return day;
}

export const finishOf = (facing: Facing): number => FACINGS.indexOf(facing);

/** One flat in one period, its characteristics coded as above. */
export interface HedonicObservation {
  period: number;
  project: number;
  flat: number;
  price: number;
  area: number;
  roomGroup: number;
  floorBand: number;
  finish: number;
  keysBand: number;
}

/** The characteristics' columns after the period dummies, each named; a code's column is `[from + code]`. */
const CONTROLS = [
  { name: 'rooms', codes: 4, base: 1 },
  { name: 'floor', codes: 4, base: 0 },
  { name: 'finish', codes: FACINGS.length, base: 0 },
  { name: 'keys', codes: 6, base: 0 },
] as const;
type ControlName = (typeof CONTROLS)[number]['name'];

/** The control columns: the categories' dummies (base left out), then ln(area). */
export const CONTROL_COLUMNS: readonly { control: ControlName | 'lnArea'; code: number }[] = [
  ...CONTROLS.flatMap((c) =>
    Array.from({ length: c.codes }, (_, code) => ({ control: c.name, code })).filter(
      (x) => x.code !== c.base,
    ),
  ),
  { control: 'lnArea', code: 0 },
];

/** Each control's column by code (−1 for its base). */
const COLUMN_OF: Record<ControlName, number[]> = Object.fromEntries(
  CONTROLS.map((c) => [
    c.name,
    Array.from({ length: c.codes }, (_, code) =>
      CONTROL_COLUMNS.findIndex((x) => x.control === c.name && x.code === code),
    ),
  ]),
) as Record<ControlName, number[]>;
const LN_AREA = CONTROL_COLUMNS.length - 1;

/** A flat's characteristics the controls are made of. */
type Controlled = Pick<HedonicObservation, 'roomGroup' | 'floorBand' | 'finish' | 'keysBand' | 'area'>;

/** The control columns an observation has as 1 (or ln(area)), by the columns' place among the controls. */
function controlsOf(o: Controlled, cols: Int32Array, vals: Float64Array): number {
  let n = 0;
  const put = (col: number, v: number) => {
    if (col < 0) return;
    cols[n] = col;
    vals[n++] = v;
  };
  put(COLUMN_OF.rooms[o.roomGroup], 1);
  put(COLUMN_OF.floor[o.floorBand], 1);
  put(COLUMN_OF.finish[o.finish], 1);
  put(COLUMN_OF.keys[o.keysBand], 1);
  put(LN_AREA, Math.log(o.area));
  return n;
}

/** The controls and ln ppm of an observation, with a leading 1: Z = (1, controls…, y). */
const Z = CONTROL_COLUMNS.length + 2;
const Y = Z - 1;
/** Where Σ z_i z_j (i ≤ j) sits in a project-month's sums, after n, Σ price and Σ area. */
const zz = (i: number, j: number) => 3 + i * Z - ((i * (i - 1)) >> 1) + (j - i);
/** The length of a project-month's sums. */
export const SUMS_LENGTH = 3 + (Z * (Z + 1)) / 2;

/**
 * A project's observations in one period as the model needs them (its sufficient statistics): the count,
 * Σ price, Σ area and every Σ z_i z_j of Z = (1, controls, ln ppm), summed in flat order. The fit of any
 * window over any set of projects is made of these alone, so the import keeps them per project and month.
 */
export interface ProjectPeriodSums {
  project: number;
  period: number;
  sums: Float64Array;
}

/** The sums of each project and period of the observations (whatever their order), by project and period. */
export function projectPeriodSums(observations: readonly HedonicObservation[]): ProjectPeriodSums[] {
  const sorted = [...observations].sort(
    (a, b) => a.project - b.project || a.period - b.period || a.flat - b.flat,
  );
  const out: ProjectPeriodSums[] = [];
  const add = sumsAdder();
  let current: ProjectPeriodSums | null = null;
  for (const o of sorted) {
    if (!current || current.project !== o.project || current.period !== o.period) {
      current = { project: o.project, period: o.period, sums: new Float64Array(SUMS_LENGTH) };
      out.push(current);
    }
    add(current.sums, 0, o);
  }
  return out;
}

/** Adds an observation to sums laid out as above, from `at` on (its scratch space made once). */
export function sumsAdder(): (sums: Float64Array, at: number, o: HedonicObservation) => void {
  const cols = new Int32Array(8);
  const vals = new Float64Array(8);
  // z's non-zero places (ascending) and values: 1, a dummy a category at most, ln(area), ln ppm
  const idx = new Int32Array(8);
  const val = new Float64Array(8);
  return (s, at, o) => {
    const m = controlsOf(o, cols, vals);
    let n = 0;
    idx[n] = 0;
    val[n++] = 1;
    // controlsOf gives them in column order
    for (let j = 0; j < m; j++) {
      idx[n] = 1 + cols[j];
      val[n++] = vals[j];
    }
    idx[n] = Y;
    val[n++] = Math.log(o.price / o.area);
    s[at]++;
    s[at + 1] += o.price;
    s[at + 2] += o.area;
    for (let a = 0; a < n; a++) {
      const i = idx[a];
      const row = at + 3 + i * Z - ((i * (i - 1)) >> 1) - i;
      for (let b = a; b < n; b++) s[row + idx[b]] += val[a] * val[b];
    }
  };
}

/** The fitted window. */
export interface HedonicFit {
  /** the window's periods with observations, ascending; the first is the base (δ = 0) */
  periods: number[];
  /** δ of each period (ln), the base's 0 */
  delta: Map<number, number>;
  /** the controls' coefficients in CONTROL_COLUMNS' order (0 for one the window cannot tell) */
  beta: Float64Array;
  /** the covariance of two periods' δ (the base's is 0) */
  covariance(a: number, b: number): number;
  /** each kept project's effect (ln), with the δ and the controls it is measured against */
  projectEffect: Map<number, number>;
  /** observations and projects used, projects left out for having too few */
  observations: number;
  projects: number;
  dropped: number;
  /** the residual variance (ln ppm) */
  sigma2: number;
  /** per period of the window: observations, projects, Σ price, Σ area of the observations used */
  byPeriod: Map<number, { observations: number; projects: number; sumPrice: number; sumArea: number }>;
}

/** What a flat's fair price and its comparables read of a fit (analytics/hedonic-fair.ts; kept by the round). */
export type FairFit = Pick<HedonicFit, 'delta' | 'beta' | 'projectEffect'>;

/**
 * Fits the window of periods [first, last] to the observations in it (others are ignored). Null when no
 * project has enough observations.
 */
export function fitWindow(
  observations: readonly HedonicObservation[],
  first: number,
  last: number,
  minObservations = 5,
): HedonicFit | null {
  return fitSums(
    projectPeriodSums(observations.filter((o) => o.period >= first && o.period <= last)),
    first,
    last,
    minObservations,
  );
}

/**
 * Fits the window of periods [first, last] from projects' period sums (any order; others ignored): the
 * normal equations of the model demeaned within each project, each project's part added in project order.
 */
export function fitSums(
  rows: readonly ProjectPeriodSums[],
  first: number,
  last: number,
  minObservations = 5,
): HedonicFit | null {
  return drain(fitSumsSteps(rows, first, last, minObservations));
}

/** Projects whose parts of the normal equations one step of `fitSumsSteps` adds. */
export const FIT_STEP_PROJECTS = 32;

/**
 * `fitSums` in steps (lib/steps.ts): a step after the rows are grouped, after every FIT_STEP_PROJECTS
 * projects' parts — a window of the whole market (5,000 projects) is tens of ms of a server's thread, and a
 * round fits hundreds of them.
 */
export function* fitSumsSteps(
  rows: readonly ProjectPeriodSums[],
  first: number,
  last: number,
  minObservations = 5,
): Steps<HedonicFit | null> {
  const byProject = new Map<number, ProjectPeriodSums[]>();
  for (const r of rows) {
    if (r.period < first || r.period > last || r.sums[0] === 0) continue;
    const list = byProject.get(r.project);
    if (list) list.push(r);
    else byProject.set(r.project, [r]);
  }
  const projects = [...byProject.keys()].sort((a, b) => a - b);
  let dropped = 0;
  const used: ProjectPeriodSums[][] = [];
  for (const p of projects) {
    const list = byProject.get(p)!.sort((a, b) => a.period - b.period);
    if (list.reduce((n, r) => n + r.sums[0], 0) >= minObservations) used.push(list);
    else dropped++;
  }
  if (used.length === 0) return null;
  const periods = [...new Set(used.flatMap((l) => l.map((r) => r.period)))].sort((a, b) => a - b);
  const periodColumn = new Map(periods.slice(1).map((p, i) => [p, i]));
  const dummies = periods.length - 1;
  const controls = CONTROL_COLUMNS.length;
  const k = dummies + controls;
  // the augmented system over (period dummies, controls, y): k + 1 square
  const w = k + 1;
  const total = new Float64Array(w * w);
  const own = new Float64Array(w * w);
  const sum = new Float64Array(w);
  const projectSums = new Map<number, { n: number; sums: Float64Array }>();
  const byPeriod = new Map<
    number,
    { observations: number; projects: number; sumPrice: number; sumArea: number }
  >();
  let observationsUsed = 0;
  yield;
  for (const [at, list] of used.entries()) {
    if (at % FIT_STEP_PROJECTS === FIT_STEP_PROJECTS - 1) yield;
    own.fill(0);
    sum.fill(0);
    let n = 0;
    for (const r of list) {
      const s = r.sums;
      const pc = periodColumn.get(r.period);
      // controls and y: columns dummies…k of the system, z indices 1…Z-1
      for (let i = 1; i < Z; i++) {
        const a = dummies + i - 1;
        sum[a] += s[zz(0, i)];
        for (let j = i; j < Z; j++) own[a * w + dummies + j - 1] += s[zz(i, j)];
        if (pc !== undefined) own[pc * w + a] += s[zz(0, i)];
      }
      if (pc !== undefined) {
        own[pc * w + pc] += s[0];
        sum[pc] += s[0];
      }
      n += s[0];
      const stats = byPeriod.get(r.period) ?? { observations: 0, projects: 0, sumPrice: 0, sumArea: 0 };
      stats.observations += s[0];
      stats.projects++;
      stats.sumPrice += s[1];
      stats.sumArea += s[2];
      byPeriod.set(r.period, stats);
    }
    observationsUsed += n;
    for (let i = 0; i < w; i++)
      for (let j = i; j < w; j++) total[i * w + j] += own[i * w + j] - (sum[i] * sum[j]) / n;
    projectSums.set(list[0].project, { n, sums: sum.slice() });
  }
  for (let i = 0; i < w; i++) for (let j = 0; j < i; j++) total[i * w + j] = total[j * w + i];
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) xtx[i * k + j] = total[i * w + j];
    xty[i] = total[i * w + k];
  }
  const solved = sweepSolve(xtx, xty, total[k * w + k], k);
  const b = solved.coefficients;
  const coefficient = (i: number) => (Number.isNaN(b[i]) ? 0 : b[i]);
  const df = observationsUsed - projectSums.size - solved.rank;
  const sigma2 = df > 0 ? solved.residual / df : Number.NaN;
  const delta = new Map<number, number>([[periods[0], 0]]);
  for (const [p, c] of periodColumn) delta.set(p, coefficient(c));
  const projectEffect = new Map<number, number>();
  for (const [project, s] of projectSums) {
    let fitted = 0;
    for (let i = 0; i < k; i++) fitted += coefficient(i) * s.sums[i];
    projectEffect.set(project, (s.sums[k] - fitted) / s.n);
  }
  const beta = new Float64Array(controls);
  for (let i = 0; i < controls; i++) beta[i] = coefficient(dummies + i);
  return {
    periods,
    delta,
    beta,
    covariance(p: number, q: number) {
      const i = periodColumn.get(p);
      const j = periodColumn.get(q);
      if (i === undefined || j === undefined) return 0;
      return sigma2 * solved.inverse[i * k + j];
    },
    projectEffect,
    observations: observationsUsed,
    projects: projectSums.size,
    dropped,
    sigma2,
    byPeriod,
  };
}

/** The fitted ln(price per m²) of a flat with these characteristics in a period of the window; null when its project is not in the fit. */
export function fittedLnPpm(fit: FairFit, o: Omit<HedonicObservation, 'price' | 'flat'>): number | null {
  const effect = fit.projectEffect.get(o.project);
  const delta = fit.delta.get(o.period);
  if (effect === undefined || delta === undefined) return null;
  return delta + effect + controlsEffect(fit.beta, o);
}

const EFFECT_COLS = new Int32Array(8);
const EFFECT_VALS = new Float64Array(8);

/** Σ β·x over the controls of a flat's characteristics. */
export function controlsEffect(beta: Float64Array, o: Controlled): number {
  // one pair of columns for every call (synchronous): a fair price's comparables ask for thousands
  const cols = EFFECT_COLS;
  const vals = EFFECT_VALS;
  const m = controlsOf(o, cols, vals);
  let sum = 0;
  for (let j = 0; j < m; j++) sum += beta[cols[j]] * vals[j];
  return sum;
}
