import type { Db } from '../db/driver.js';
import type { Actor } from '../db/queries/audit.js';
import { demoSourcesRegistered, markDemoSourcesRegistered } from '../db/queries/meta.js';
import { moveSourceUrl, sourceNameTaken } from '../db/queries/sources.js';
import { createSource } from '../use-cases/sources.js';
import { demoSources } from './feeds.js';

/** Who registers the demo's sources in the audit log. */
const DEMO_ACTOR: Actor = { id: null, name: 'демо', address: null };

/**
 * On a demo database, the two demo sources are registered once (a user may delete them); at every start
 * they are pointed at the feeds read in-process (a database of an older version had this server's HTTP
 * address there).
 */
export async function registerDemoSources(db: Db): Promise<void> {
  const done = await demoSourcesRegistered(db);
  for (const s of demoSources()) {
    if (done) await moveSourceUrl(db, s.name, s.url);
    else if (!(await sourceNameTaken(db, s.name))) await createSource(db, s, DEMO_ACTOR, true);
  }
  if (!done) await markDemoSourcesRegistered(db);
}
