import { FACINGS, type Facing, SETTLEMENT_DONE } from '@cena-metra/contract';
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
  const day = Date.parse(`${settlementDate}T00:00:00Z`) / 86_400_000;
  if (!Number.isFinite(day)) return 5;
  const months = (day - periodEndDay) / (365.25 / 12);
  if (months <= 0) return 0;
  if (months <= 6) return 1;
  if (months <= 12) return 2;
  if (months <= 24) return 3;
  return 4;
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

/** The control columns an observation has as 1 (or ln(area)), by the columns' place among the controls. */
function controlsOf(o: HedonicObservation, cols: Int32Array, vals: Float64Array): number {
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

/** Observations in a canonical order: by project, flat and period, whatever order they came in. */
function canonical(observations: readonly HedonicObservation[]): HedonicObservation[] {
  return [...observations].sort((a, b) => a.project - b.project || a.flat - b.flat || a.period - b.period);
}

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
  const inWindow = canonical(observations.filter((o) => o.period >= first && o.period <= last));
  const perProject = new Map<number, number>();
  for (const o of inWindow) perProject.set(o.project, (perProject.get(o.project) ?? 0) + 1);
  const used = inWindow.filter((o) => perProject.get(o.project)! >= minObservations);
  const dropped = [...perProject.values()].filter((n) => n < minObservations).length;
  if (used.length === 0) return null;
  const periods = [...new Set(used.map((o) => o.period))].sort((a, b) => a - b);
  const periodColumn = new Map(periods.slice(1).map((p, i) => [p, i]));
  const dummies = periods.length - 1;
  const k = dummies + CONTROL_COLUMNS.length;
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  let yty = 0;
  // one project's sums, added demeaned when it ends
  const sxx = new Float64Array(k * k);
  const sx = new Float64Array(k);
  const sxy = new Float64Array(k);
  let n = 0;
  let sy = 0;
  let syy = 0;
  const projectSums = new Map<number, { n: number; sy: number; sx: Float64Array }>();
  const cols = new Int32Array(8);
  const vals = new Float64Array(8);
  const flush = (project: number) => {
    for (let i = 0; i < k; i++) {
      xty[i] += sxy[i] - (sx[i] * sy) / n;
      for (let j = 0; j < k; j++) xtx[i * k + j] += sxx[i * k + j] - (sx[i] * sx[j]) / n;
    }
    yty += syy - (sy * sy) / n;
    projectSums.set(project, { n, sy, sx: sx.slice() });
    sxx.fill(0);
    sx.fill(0);
    sxy.fill(0);
    n = sy = syy = 0;
  };
  const byPeriod = new Map<
    number,
    { observations: number; projects: number; sumPrice: number; sumArea: number }
  >();
  const periodProjects = new Set<string>();
  for (let i = 0; i < used.length; i++) {
    const o = used[i];
    const y = Math.log(o.price / o.area);
    let m = controlsOf(o, cols, vals);
    for (let j = 0; j < m; j++) cols[j] += dummies;
    const pc = periodColumn.get(o.period);
    if (pc !== undefined) {
      cols[m] = pc;
      vals[m++] = 1;
    }
    for (let a = 0; a < m; a++) {
      sx[cols[a]] += vals[a];
      sxy[cols[a]] += vals[a] * y;
      for (let b = 0; b < m; b++) sxx[cols[a] * k + cols[b]] += vals[a] * vals[b];
    }
    n++;
    sy += y;
    syy += y * y;
    const stats = byPeriod.get(o.period) ?? { observations: 0, projects: 0, sumPrice: 0, sumArea: 0 };
    stats.observations++;
    stats.sumPrice += o.price;
    stats.sumArea += o.area;
    if (!periodProjects.has(`${o.period}:${o.project}`)) {
      periodProjects.add(`${o.period}:${o.project}`);
      stats.projects++;
    }
    byPeriod.set(o.period, stats);
    if (i + 1 === used.length || used[i + 1].project !== o.project) flush(o.project);
  }
  const solved = sweepSolve(xtx, xty, yty, k);
  const b = solved.coefficients;
  const coefficient = (i: number) => (Number.isNaN(b[i]) ? 0 : b[i]);
  const df = used.length - projectSums.size - solved.rank;
  const sigma2 = df > 0 ? solved.residual / df : Number.NaN;
  const delta = new Map<number, number>([[periods[0], 0]]);
  for (const [p, c] of periodColumn) delta.set(p, coefficient(c));
  const projectEffect = new Map<number, number>();
  for (const [project, s] of projectSums) {
    let fitted = 0;
    for (let i = 0; i < k; i++) fitted += coefficient(i) * s.sx[i];
    projectEffect.set(project, (s.sy - fitted) / s.n);
  }
  const beta = new Float64Array(CONTROL_COLUMNS.length);
  for (let i = 0; i < beta.length; i++) beta[i] = coefficient(dummies + i);
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
    observations: used.length,
    projects: projectSums.size,
    dropped,
    sigma2,
    byPeriod,
  };
}

/** The fitted ln(price per m²) of a flat with these characteristics in a period of the window; null when its project is not in the fit. */
export function fittedLnPpm(fit: HedonicFit, o: Omit<HedonicObservation, 'price' | 'flat'>): number | null {
  const effect = fit.projectEffect.get(o.project);
  const delta = fit.delta.get(o.period);
  if (effect === undefined || delta === undefined) return null;
  return delta + effect + controlsEffect(fit.beta, o);
}

/** Σ β·x over the controls of a flat's characteristics. */
export function controlsEffect(
  beta: Float64Array,
  o: Omit<HedonicObservation, 'price' | 'flat' | 'period' | 'project'>,
): number {
  const cols = new Int32Array(8);
  const vals = new Float64Array(8);
  const m = controlsOf({ ...o, period: 0, project: 0, flat: 0, price: 1 }, cols, vals);
  let sum = 0;
  for (let j = 0; j < m; j++) sum += beta[cols[j]] * vals[j];
  return sum;
}
