import { type Snapshot, validateSnapshot } from '../ingest/snapshot.js';
import type { DemoPlan } from './generate.js';

/** Project p's lists day by day, validated as any list is; null for a day without a list. */
export function* demoLists(plan: DemoPlan, p: number): Generator<Snapshot | null> {
  const project = plan.projects[p];
  for (let k = 0; k < plan.days.length; k++) {
    const raw = plan.snapshot(p, k);
    if ((raw.flats as unknown[]).length === 0) yield null;
    else yield validateSnapshot(raw, { file: 'demo', at: `${project.name} ${raw.date}` }, 'demo');
  }
}
