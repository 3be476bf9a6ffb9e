import { soldOf } from './registry.js';

/**
 * The pipeline of the registry (DESIGN §12.3): launches (an object published, or first seen when the
 * registry gives no date, in the quarter) and completions by declared quarter (the completion declared now),
 * with flats, unsold flats (flats less those registered sold) and the sold share. Pure.
 */

export interface PipelineObject {
  /** the day the declaration was published, the day first seen, the completion declared now */
  publishedDay?: string;
  firstDay: string;
  readyDay?: string;
  flats?: number;
  soldShare?: number;
  salesTotal?: number;
  salesRealised?: number;
}

export interface PipelineQuarter {
  /** «2026-Q4» */
  quarter: string;
  launches: number;
  launchedFlats: number;
  completions: number;
  completingFlats: number;
  /** flats of the quarter's completions not registered sold (null: none of them says) */
  unsold: number | null;
  soldShare: number | null;
}

export const quarterOf = (day: string) =>
  `${day.slice(0, 4)}-Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`;

/** The quarters from `from`'s to `to`'s, in order. */
export function quartersBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let q = Math.floor((Number(from.slice(5, 7)) - 1) / 3);
  const last = quarterOf(to);
  for (;;) {
    const key = `${y}-Q${q + 1}`;
    out.push(key);
    if (key === last || out.length > 400) return out;
    q++;
    if (q === 4) {
      q = 0;
      y++;
    }
  }
}

export function pipeline(objects: readonly PipelineObject[], from: string, to: string): PipelineQuarter[] {
  const rows = new Map(
    quartersBetween(from, to).map((quarter) => [
      quarter,
      { quarter, launches: 0, launchedFlats: 0, completions: 0, completingFlats: 0, total: 0, realised: 0 },
    ]),
  );
  for (const o of objects) {
    const launched = rows.get(quarterOf(o.publishedDay ?? o.firstDay));
    const sold = soldOf(o);
    const flats = o.flats ?? sold?.total ?? 0;
    if (launched) {
      launched.launches++;
      launched.launchedFlats += flats;
    }
    const completing = o.readyDay ? rows.get(quarterOf(o.readyDay)) : undefined;
    if (completing) {
      completing.completions++;
      completing.completingFlats += flats;
      if (sold) {
        completing.total += sold.total;
        completing.realised += sold.realised;
      }
    }
  }
  return [...rows.values()].map(({ total, realised, ...r }) => ({
    ...r,
    unsold: total > 0 ? total - realised : null,
    soldShare: total > 0 ? Math.round((realised / total) * 10_000) / 10_000 : null,
  }));
}
