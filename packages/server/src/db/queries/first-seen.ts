import type { ProjectModel } from '../../analytics/model.js';
import { fromDay } from '../../lib/days.js';
import type { Db } from '../driver.js';

/**
 * Keeps each flat's first presence on `flat.first_seen` (the model's rule, `firstPresences`): only the
 * flats whose day moved are written — a new flat, or a back-filled or replaced list before its first one.
 */
export async function keepFirstSeen(db: Db, model: ProjectModel): Promise<Map<number, number>> {
  const first = model.firstPresences();
  if (model.known) {
    // an append's window: only a new flat's presence is new (its list's day, as written with it), none goes
    const known = model.known;
    const fresh = [...first.keys()].filter((id) => !known.has(id));
    if (fresh.length)
      await db.query(
        `update flat f set first_seen = x.d from unnest($2::int[], $3::date[]) as x(id, d)
         where f.project_id = $1 and f.id = x.id and f.first_seen is distinct from x.d`,
        [model.projectId, fresh, fresh.map((id) => fromDay(first.get(id)!))],
      );
    return first;
  }
  const ids = [...first.keys()];
  await db.query(
    `update flat f set first_seen = x.d from unnest($2::int[], $3::date[]) as x(id, d)
     where f.project_id = $1 and f.id = x.id and f.first_seen is distinct from x.d`,
    [model.projectId, ids, ids.map((id) => fromDay(first.get(id)!))],
  );
  // a flat whose only list was replaced without it has no presence left
  await db.query(
    `update flat set first_seen = null
     where project_id = $1 and first_seen is not null and id <> all($2::int[])`,
    [model.projectId, ids],
  );
  return first;
}
