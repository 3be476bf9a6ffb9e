// What the entry points read (DESIGN §12.2): a read is no act — nothing to audit, invalidate or follow — so
// it goes straight to its query by domain. Routes, the CLI and the bot reach storage only through
// use-cases/; this is the door of the plain reads.

export { auditPage, auditRows } from '../db/queries/audit.js';
export {
  countProjects,
  getDevelopers,
  getPlaces,
  getProjectPlaces,
  getProjects,
} from '../db/queries/catalog.js';
export {
  getPriceChanges,
  priceChangePages,
  priceChangesCsv,
  withDefaultRange,
} from '../db/queries/events.js';
export { getFlatCard } from '../db/queries/flats.js';
export { getDataState } from '../db/queries/health.js';
export { serverVersion } from '../db/queries/meta.js';
export { getProjectQuality } from '../db/queries/quality.js';
export { search } from '../db/queries/search.js';
export { getSummaries, getSummary, getSummaryProject } from '../db/queries/summaries.js';
export { compareProjects } from '../read/market-compare.js';
export { marketMap } from '../read/market-map.js';
export { projectClassInfo } from '../read/project-class.js';
export { registryCandidates } from '../read/registry-candidates.js';
export { registryMarket } from '../read/registry-market.js';
export { registryObjects, registryReliability, registryShifts } from '../read/registry-reader.js';
export { registryPipeline, registrySales } from '../read/registry-sales.js';
