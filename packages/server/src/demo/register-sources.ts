import type { Db } from '../db/driver.js';
import type { Actor } from '../db/queries/audit.js';
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
  const [done] = await db.query(`select 1 from app_meta where key = 'demo_sources'`);
  for (const s of demoSources()) {
    if (done) await db.query('update source set url = $2 where lower(name) = lower($1)', [s.name, s.url]);
    else {
      const [exists] = await db.query('select 1 from source where lower(name) = lower($1)', [s.name]);
      if (!exists) await createSource(db, s, DEMO_ACTOR, true);
    }
  }
  if (!done)
    await db.query(
      `insert into app_meta (key, value) values ('demo_sources', 'yes') on conflict (key) do nothing`,
    );
}
