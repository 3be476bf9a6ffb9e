import { addUser, getUserByName } from '../auth/users.js';
import type { Db } from '../db/driver.js';
import { analyzeAfterBulkLoad } from '../db/migrate.js';
import { ensureDeveloper, type Importer } from '../ingest/importer.js';
import { validateSnapshot } from '../ingest/snapshot.js';
import { todayIso } from '../lib/days.js';
import { type DemoOptions, planDemo } from './generate.js';
import { markDemoData } from './meta.js';

export const DEMO_USER = { username: 'demo', password: 'demo' };

export interface DemoProgress {
  done: number;
  total: number;
}

/**
 * Generates the demo market and imports it through the same path as real data (validation, then one
 * transaction per snapshot), creates the demo account, and marks the database as holding demo data.
 */
export async function runDemo(
  db: Db,
  importer: Importer,
  options: Partial<DemoOptions> = {},
  onProgress?: (p: DemoProgress) => void,
): Promise<{ projects: number; snapshots: number }> {
  const plan = planDemo({ until: options.until ?? todayIso(), ...options });
  for (const name of plan.developers) await ensureDeveloper(db, name);
  const total = plan.days.length * plan.projects.length;
  let done = 0;
  for (let p = 0; p < plan.projects.length; p++) {
    const project = plan.projects[p];
    function* snapshots() {
      for (let k = 0; k < plan.days.length; k++) {
        const raw = plan.snapshot(p, k);
        done++;
        if (done % 200 === 0) onProgress?.({ done, total });
        if ((raw.flats as unknown[]).length === 0) continue;
        yield validateSnapshot(raw, { file: 'demo', at: `${project.name} ${raw.date}` }, 'demo');
      }
    }
    // one transaction per project: the demo is loaded whole or not at all, project by project
    await importer.applyProjectBatch(project.developer, project.name, snapshots());
  }
  onProgress?.({ done: total, total });
  if (!(await getUserByName(db, DEMO_USER.username)))
    await addUser(db, DEMO_USER.username, DEMO_USER.password);
  await markDemoData(db, true);
  await analyzeAfterBulkLoad(db);
  return { projects: plan.projects.length, snapshots: done };
}
