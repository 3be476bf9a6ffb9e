import { addSource, loggedSource, removeSource, type SourceInput, updateSource } from '../collect/sources.js';
import type { Db } from '../db/driver.js';
import { type Actor, audit } from '../db/queries/audit.js';
import { getSource, type Source } from '../db/queries/sources.js';

export { getSource, lastRuns, listSources, type Source } from '../db/queries/sources.js';

// A source's management (DESIGN §10.8, §12.2): each act checked, done and audited in one transaction — the
// «Источники» page, `cena-metra source …` and the demo call these.

/** A new source (its address checked: never inside the network unless allowed), audited. */
export async function createSource(
  db: Db,
  input: SourceInput,
  actor: Actor,
  trusted = false,
): Promise<Source> {
  return db.transaction(async (tx) => {
    const s = await addSource(tx, input, trusted);
    await audit(tx, actor, 'source.create', s.name, null, loggedSource(s));
    return s;
  });
}

/** A source changed (by id or name), audited before → after. */
export async function changeSource(
  db: Db,
  key: number | string,
  patch: Partial<SourceInput>,
  actor: Actor,
): Promise<Source> {
  return db.transaction(async (tx) => {
    const before = await getSource(tx, key);
    const after = await updateSource(tx, before.id, patch);
    await audit(tx, actor, 'source.update', after.name, loggedSource(before), loggedSource(after));
    return after;
  });
}

/** A source removed with its runs (its snapshots stay), audited. */
export async function deleteSource(db: Db, key: number | string, actor: Actor): Promise<Source> {
  return db.transaction(async (tx) => {
    const before = await getSource(tx, key);
    await removeSource(tx, before.id);
    await audit(tx, actor, 'source.delete', before.name, loggedSource(before), null);
    return before;
  });
}
