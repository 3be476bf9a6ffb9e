import * as base from './schema.js';
import * as kept from './schema-kept.js';
import * as team from './schema-team.js';

/** Every table of the migrated database, in the order of its migrations (test/schema.test.ts reads it). */
export const TABLES = [
  base.developer,
  base.project,
  base.snapshot,
  base.flat,
  base.flatObservation,
  base.flatSegment,
  kept.seriesMonth,
  base.flatEvent,
  base.dailySummary,
  base.summaryProject,
  base.appUser,
  base.session,
  base.telegramSubscription,
  base.telegramPost,
  base.telegramDelivery,
  base.appMeta,
  base.jobRun,
  base.source,
  base.sourceRun,
  kept.paceSummary,
  kept.rankMonth,
  kept.projectLatest,
  kept.chessLatest,
  base.watch,
  base.watchAlert,
  base.alertCursor,
  base.telegramLinkCode,
  base.alertDigest,
  kept.offerDay,
  team.userInvite,
  team.auditLog,
  kept.marketSpan,
];
