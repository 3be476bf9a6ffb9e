import type { StateAt } from '../analytics/registry.js';
import type { Db } from '../db/driver.js';
import { bytes } from '../db/kept.js';
import { decodeHistory } from '../db/kept-history.js';
import { listedProjectsMark } from '../db/queries/catalog.js';
import { statesOf } from '../db/queries/registry.js';
import { heldHistoryRows, heldObjectRows, registryVersion } from '../db/queries/registry-held.js';
import type { RegistryFacts } from '../registry/answers.js';
import { effectsByDay } from '../registry/state.js';
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

  /**
   * Each object's light history by id (made from its states where not kept yet), held as its kept bytes and
   * decoded when asked for: the country's 620,000 states as objects outlived the young generation (~0.6 s of
   * collections in a first request), decoded one object at a time they do not.
   */
  async histories(db: Db): Promise<Histories> {
    const version = await registryVersion(db);
    const held = this.shared.get<Histories>(HISTORIES, version);
    if (held) return held;
    const kept = new Map<number, Buffer>();
    const made = new Map<number, StateAt[]>();
    const missing: number[] = [];
    let size = 100;
    for (const r of await heldHistoryRows(db)) {
      if (r.history === null) missing.push(r.obj_id);
      else {
        const body = bytes(r.history);
        kept.set(r.obj_id, body);
        size += 100 + body.length;
      }
    }
    if (missing.length) {
      const states = await statesOf(db, missing);
      for (const id of missing) {
        const h = effectsByDay(states.get(id) ?? []);
        made.set(id, h);
        size += 100 + h.length * 150;
      }
    }
    const histories: Histories = {
      get: (objId) => {
        const body = kept.get(objId);
        return body ? decodeHistory(body) : made.get(objId);
      },
    };
    this.shared.set(HISTORIES, version, histories, () => size);
    return histories;
  }
}

/** The objects' light histories, each decoded when asked for (undefined: no such object). */
export interface Histories {
  get(objId: number): StateAt[] | undefined;
}
