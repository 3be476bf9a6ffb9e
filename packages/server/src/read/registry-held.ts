import type { StateAt } from '../analytics/registry.js';
import type { Db } from '../db/driver.js';
import { listedProjectsMark } from '../db/queries/catalog.js';
import { statesOf } from '../db/queries/registry.js';
import { heldHistoryRows, heldObjectRows, registryVersion } from '../db/queries/registry-held.js';
import type { RegistryFacts } from '../registry/answers.js';
import { stateOf } from '../registry/state.js';
import type { ReadCache } from './read-cache.js';

/** An object as the registry's reads take it: its row and its effective facts now. */
export interface HeldObject {
  objId: number;
  firstDay: string;
  lastDay: string;
  projectId: number | null;
  building: string | null;
  match: 'auto' | 'hand' | 'none';
  facts: RegistryFacts;
}

const OBJECTS = 'registry:objects';
const HISTORIES = 'registry:histories';

/**
 * The registry's objects and their light histories held in the shared cache per version of the registry
 * (DESIGN §11.1: a bounded layer in front of the kept columns; the version is counted up by every import,
 * link and rebuild): the country's 12,000 objects are read from their kept facts once, not parsed from every
 * state on every request. The histories are read only by the figures over time (sales, shifts).
 */
export class RegistryHeld {
  constructor(private readonly shared: ReadCache) {}

  /**
   * A read's answer held per version of the registry and of the market's projects (a place or a new
   * project moves a registry project's place or match): the whole country's answer is made once a version.
   */
  async answer<V>(db: Db, key: string, bytes: (v: V) => number, make: () => Promise<V>): Promise<V> {
    const version = `${await registryVersion(db)}:${await listedProjectsMark(db)}`;
    const held = this.shared.get<V>(`registry:answer:${key}`, version);
    if (held !== undefined) return held;
    const value = await make();
    this.shared.set(`registry:answer:${key}`, version, value, bytes);
    return value;
  }

  async objects(db: Db): Promise<HeldObject[]> {
    const version = await registryVersion(db);
    const held = this.shared.get<HeldObject[]>(OBJECTS, version);
    if (held) return held;
    const list = (await heldObjectRows(db)).map(
      (r): HeldObject => ({
        objId: r.obj_id,
        firstDay: r.first_day,
        lastDay: r.last_day,
        projectId: r.project_id,
        building: r.building,
        match: r.match,
        facts: (typeof r.facts === 'string' ? JSON.parse(r.facts) : r.facts) as RegistryFacts,
      }),
    );
    this.shared.set(OBJECTS, version, list, (l) => 100 + l.length * 1500);
    return list;
  }

  /** Each object's light history by id (made from its states where not kept yet). */
  async histories(db: Db): Promise<Map<number, StateAt[]>> {
    const version = await registryVersion(db);
    const held = this.shared.get<Map<number, StateAt[]>>(HISTORIES, version);
    if (held) return held;
    const out = new Map<number, StateAt[]>();
    const missing: number[] = [];
    let entries = 0;
    for (const r of await heldHistoryRows(db)) {
      const h = (typeof r.history === 'string' ? JSON.parse(r.history) : r.history) as StateAt[] | null;
      if (h === null) missing.push(r.obj_id);
      else {
        out.set(r.obj_id, h);
        entries += h.length;
      }
    }
    if (missing.length) {
      const states = await statesOf(db, missing);
      for (const id of missing) {
        const h = (states.get(id) ?? []).map((s) => ({ day: s.day, eff: stateOf(s.state).eff }));
        out.set(id, h);
        entries += h.length;
      }
    }
    this.shared.set(HISTORIES, version, out, () => 100 + out.size * 100 + entries * 150);
    return out;
  }
}
