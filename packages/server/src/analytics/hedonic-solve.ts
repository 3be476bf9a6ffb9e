/**
 * Least squares by the sweep operator (Goodnight 1979) on the cross products of a regression, with the
 * aliased columns left out the way R's `lm` leaves them: a column whose part not explained by the columns
 * before it is (nearly) zero gets no coefficient. A hedonic window is routinely rank-deficient — a rooms
 * filter makes the rooms dummies constant, a segment may have no flat of a finish, a month no lot — and its
 * month dummies come first, so they are the columns kept. (docs/decisions.md: why not a matrix library.)
 */

/** Relative size under which a column counts as explained by the columns before it. */
const ALIAS_TOLERANCE = 1e-9;

export interface LeastSquares {
  /** the coefficient of each column, NaN for an aliased one */
  coefficients: Float64Array;
  /** (X'X)⁻¹ over the kept columns, k × k row-major; zero in an aliased column's row and column */
  inverse: Float64Array;
  /** the residual sum of squares */
  residual: number;
  /** the number of columns kept (the rank) */
  rank: number;
}

/**
 * Solves the normal equations of `xtx` (k × k, row-major, symmetric), `xty` (k) and `yty`, sweeping the
 * columns in their order.
 */
export function sweepSolve(xtx: Float64Array, xty: Float64Array, yty: number, k: number): LeastSquares {
  const n = k + 1;
  // the augmented matrix [[X'X, X'y], [y'X, y'y]]
  const a = new Float64Array(n * n);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) a[i * n + j] = xtx[i * k + j];
    a[i * n + k] = xty[i];
    a[k * n + i] = xty[i];
  }
  a[k * n + k] = yty;
  const kept = new Uint8Array(k);
  let rank = 0;
  for (let p = 0; p < k; p++) {
    const d = a[p * n + p];
    const scale = xtx[p * k + p];
    if (!(scale > 0) || !(d > ALIAS_TOLERANCE * scale)) {
      // aliased: its row and column take no further part
      for (let i = 0; i < n; i++) {
        a[p * n + i] = 0;
        a[i * n + p] = 0;
      }
      continue;
    }
    kept[p] = 1;
    rank++;
    for (let j = 0; j < n; j++) a[p * n + j] /= d;
    for (let i = 0; i < n; i++) {
      if (i === p) continue;
      const b = a[i * n + p];
      if (b === 0) continue;
      for (let j = 0; j < n; j++) a[i * n + j] -= b * a[p * n + j];
      a[i * n + p] = -b / d;
    }
    a[p * n + p] = 1 / d;
  }
  const coefficients = new Float64Array(k);
  const inverse = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    coefficients[i] = kept[i] ? a[i * n + k] : Number.NaN;
    if (!kept[i]) continue;
    for (let j = 0; j < k; j++) if (kept[j]) inverse[i * k + j] = a[i * n + j];
  }
  return { coefficients, inverse, residual: Math.max(0, a[k * n + k]), rank };
}
