import type { PlaceEditParsed, ProjectPlace } from '@cena-metra/contract';
import { type Actor, audit } from '../db/queries/audit.js';
import { editPlace, projectPlace } from '../ingest/place.js';
import { NotFoundError } from '../lib/errors.js';
import type { Host } from './host.js';

/**
 * A project's place edited by hand (DESIGN §11.3, §12.2): every field given wins over the sources (null
 * gives the field back to them), audited before → after in the same transaction, and the cached reads
 * forgotten. 404 for a project that does not exist.
 */
export async function changePlace(
  host: Host,
  id: number,
  edit: PlaceEditParsed,
  actor: Actor,
): Promise<ProjectPlace> {
  const place = await host.db.transaction(async (tx) => {
    const before = await projectPlace(tx, id);
    const after = before && (await editPlace(tx, id, edit));
    if (!before || !after) return null;
    await audit(tx, actor, 'place.update', `проект № ${id}`, before.place, after.place);
    return after;
  });
  host.invalidate();
  if (!place) throw new NotFoundError(`проект ${id} не найден`);
  // a project moved to another place changes the members of the places' kept spans
  await host.keepMarket();
  return place;
}
