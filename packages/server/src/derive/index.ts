import type { DerivedChanges, ProjectModel } from '../analytics/model.js';
import type { Db } from '../db/driver.js';
import { keepFirstSeen } from '../db/queries/first-seen.js';
import {
  clearTimeline,
  saveEventsAndSummaries,
  savePartialFlags,
  saveSegments,
} from '../db/queries/timeline.js';
import { lowerBound } from '../lib/sorted.js';
import { keepChess } from './chess.js';
import { keepHedonic } from './hedonic.js';
import { keepLatest } from './latest.js';
import { keepOfferTerms } from './offer-terms.js';
import { keepPace } from './pace.js';
import { saveSeries } from './series.js';

/**
 * Derived data, kept (DESIGN §11.1): everything a request reads beyond the observations is written by the
 * import that changes it, in the import's transaction — the activity timeline, the stats series of each
 * snapshot day, the events and daily summary rows, the pace summaries of every variant (what the market,
 * a developer and the pace and index pages read), the last day's summary table and distribution, the
 * chessboard it first shows and the avg ppm by payment term. A fresh process, another instance or a replica answers a first request from
 * them as fast as a later one.
 */

/** Persists what a recompute after one snapshot produced, and brings the kept data up to date with it. */
export async function saveDerived(db: Db, model: ProjectModel, derived: DerivedChanges): Promise<void> {
  await saveSegments(db, model.projectId, derived.segmentInserts, derived.segmentDeletes);
  await saveSeries(db, model.projectId, derived.cubes);
  await keepOfferTerms(db, model, [...derived.cubes.keys()]);
  await saveEventsAndSummaries(db, model.projectId, model.dates[0], derived.events, derived.cubes);
  const firstSeen = await keepFirstSeen(db, model);
  // the pace summaries from the first snapshot whose activity the change could move
  const changed = Math.min(...derived.cubes.keys(), ...derived.events.keys());
  await keepPace(db, model, firstSeen, Number.isFinite(changed) ? lowerBound(model.dates, changed) : 0);
  await keepLatest(db, model);
  await keepChess(db, model, firstSeen);
  await keepHedonic(db, model, Number.isFinite(changed) ? changed : null);
}

/** Replaces all derived data of a project with a full recompute of its model (rebuild, batch import). */
export async function rebuildProjectDerived(db: Db, model: ProjectModel): Promise<void> {
  const { cubes, events } = model.recomputeAll();
  await clearTimeline(db, model.projectId);
  if (model.dates.length > 0) {
    await saveSegments(db, model.projectId, model.allSegments().flat(), []);
    await saveSeries(db, model.projectId, cubes);
    await saveEventsAndSummaries(db, model.projectId, model.dates[0], events, cubes);
    await savePartialFlags(db, model);
  }
  await keepOfferTerms(db, model);
  const firstSeen = await keepFirstSeen(db, model);
  await keepPace(db, model, firstSeen, 0);
  await keepLatest(db, model);
  await keepChess(db, model, firstSeen);
  await keepHedonic(db, model, null);
}
