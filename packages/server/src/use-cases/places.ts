import type { PlaceEditParsed, PriceClass, ProjectClass, ProjectPlace } from '@cena-metra/contract';
import { type Actor, audit } from '../db/queries/audit.js';
import { lockedHandClass, setHandClass } from '../db/queries/classes.js';
import { editPlace, projectPlace } from '../ingest/place.js';
import { NotFoundError } from '../lib/errors.js';
import type { MarketReader } from '../read/market-reader.js';
import { projectClassInfo } from '../read/project-class.js';
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

/**
 * A project's class set by hand (DESIGN §12.3: it wins over the registry's and the price bands), or with null
 * given back to them; audited before → after, the market's list of projects read again (class_version).
 */
export async function changeClass(
  host: Host,
  market: MarketReader,
  id: number,
  priceClass: PriceClass | null,
  actor: Actor,
): Promise<ProjectClass> {
  const found = await host.db.transaction(async (tx) => {
    const before = await lockedHandClass(tx, id);
    if (!before) return false;
    await setHandClass(tx, id, priceClass);
    await audit(
      tx,
      actor,
      'project.class',
      `проект № ${id}`,
      { class: before.hand_class },
      { class: priceClass },
    );
    return true;
  });
  host.invalidate();
  if (!found) throw new NotFoundError(`проект ${id} не найден`);
  return projectClassInfo(host.db, market, id);
}
