import { controlsEffect, type FairFit, fittedLnPpm, type HedonicObservation } from './hedonic.js';

/**
 * A flat's fair price and its comparables (DESIGN §12.4), from the latest window's fit of its segment.
 *
 * Fair price: exp(fitted ln ppm) × area — the period's δ, the project's effect and the flat's
 * characteristics at the fitted prices. Premium: price / fair − 1.
 *
 * Comparables: the nearest active flats by a distance whose unit is about one rooms group, ±15 % of area,
 * two bands of months to keys, a different finish or floor band counting half, and 3 km between projects.
 * Each comparable's price is adjusted to the target by the model's coefficients: its ppm times
 * exp(β·(x_target − x_comparable)), times the target's area. The location (project) is not adjusted: the
 * kilometres keep comparables near.
 */

export interface FairValue {
  fairMeterPrice: number;
  fairPrice: number;
  /** price / fair − 1, % */
  premium: number;
}

/** The fair price of a flat in its fit; null when its project or period is not in the fit. */
export function fairValue(fit: FairFit, flat: HedonicObservation): FairValue | null {
  const ln = fittedLnPpm(fit, flat);
  if (ln === null) return null;
  const fairMeterPrice = Math.exp(ln);
  const fairPrice = fairMeterPrice * flat.area;
  return { fairMeterPrice, fairPrice, premium: (flat.price / fairPrice - 1) * 100 };
}

/** Kilometres between two points on the Earth (haversine, mean radius). */
export function kmBetween(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A candidate: an active flat and the km from the target's project (null when either has no point). */
export interface Candidate extends HedonicObservation {
  /** its rooms (the observation keeps their group) */
  rooms: number;
  km: number | null;
}

export interface Comparable {
  candidate: Candidate;
  distance: number;
  /** exp(β·(x_target − x_comparable)) − 1, % */
  adjustment: number;
  adjustedPrice: number;
}

/** The distance between a target and a candidate (see above); an unknown km counts as 3 km. */
export function comparableDistance(target: HedonicObservation, c: Candidate): number {
  const rooms = target.roomGroup - c.roomGroup;
  const area = Math.log(target.area / c.area) / 0.15;
  const keys =
    target.keysBand === 5 || c.keysBand === 5
      ? target.keysBand === c.keysBand
        ? 0
        : 1
      : (target.keysBand - c.keysBand) / 2;
  const finish = target.finish === c.finish ? 0 : 0.5;
  const floor = target.floorBand === c.floorBand ? 0 : 0.5;
  const km = (c.km ?? 3) / 3;
  return Math.sqrt(rooms * rooms + area * area + keys * keys + finish * finish + floor * floor + km * km);
}

/** The `count` nearest candidates (the target itself left out), nearest first, ties by flat. */
export function comparables(
  fit: FairFit,
  target: HedonicObservation,
  candidates: readonly Candidate[],
  count = 10,
): Comparable[] {
  const targetEffect = controlsEffect(fit.beta, target);
  return candidates
    .filter((c) => c.flat !== target.flat)
    .map((c) => ({ c, distance: comparableDistance(target, c) }))
    .sort((a, b) => a.distance - b.distance || a.c.flat - b.c.flat)
    .slice(0, count)
    .map(({ c, distance }) => {
      const factor = Math.exp(targetEffect - controlsEffect(fit.beta, c));
      return {
        candidate: c,
        distance,
        adjustment: (factor - 1) * 100,
        adjustedPrice: (c.price / c.area) * factor * target.area,
      };
    });
}
