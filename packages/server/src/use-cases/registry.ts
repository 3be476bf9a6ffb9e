import type { Db } from '../db/driver.js';
import { type Actor, audit } from '../db/queries/audit.js';
import { projectExists } from '../db/queries/catalog.js';
import { allObjectIds, registryObjectIds, saveRegistryDay } from '../db/queries/registry.js';
import { bumpRegistryVersion } from '../db/queries/registry-held.js';
import {
  buildingKeysOf,
  deleteLink,
  type ObjectToMatch,
  objectMatch,
  objectsToMatch,
  projectsToMatch,
  putLink,
  setMatch,
} from '../db/queries/registry-match.js';
import { keepObjectDay, keepRegistryClasses, type ObjectDay, replayObject } from '../derive/registry.js';
import { NotFoundError } from '../lib/errors.js';
import type { RegistryFacts } from '../registry/answers.js';
import type { SavedAnswer } from '../registry/files.js';
import { matchBuilding, matchProject } from '../registry/match.js';
import type { AnswerKind } from '../registry/state.js';
import type { Host } from './host.js';

/** What a day of the registry's import did (the run's record, DESIGN §12.3). */
export interface RegistryDayResult {
  day: string;
  /** objects the day's answers named, kept */
  objects: number;
  /** of which whose state changed */
  changed: number;
  /** answers and objects refused, each naming its object and field */
  refused: { objId: number | null; source: string; message: string }[];
}

export interface RegistryProgress {
  day: string;
  done: number;
  total: number;
}

/**
 * A registry import (DESIGN §12.2–12.3), the one door for the CLI, a collection run and anything else: the
 * answers grouped by day and applied in day order, each object of a day in its own transaction (all of it or
 * nothing: an object refused or failing loses nothing of the others), the day's record kept, the objects
 * matched to our projects, the import audited and the cached reads forgotten. Idempotent: a day imported
 * again with the same answers changes nothing.
 */
export async function applyRegistryImport(
  host: Host,
  answers: AsyncIterable<SavedAnswer> | Iterable<SavedAnswer>,
  actor: Actor,
  onProgress?: (p: RegistryProgress) => void,
): Promise<RegistryDayResult[]> {
  type Day = { objects: Map<number, ObjectDay>; refused: RegistryDayResult['refused'] };
  const days = new Map<string, Day>();
  const refusedOf = (day: string): Day => {
    const d: Day = days.get(day) ?? { objects: new Map(), refused: [] };
    days.set(day, d);
    return d;
  };
  const undated: RegistryDayResult['refused'] = [];
  for await (const a of answers) {
    if (!a.day) {
      undated.push({ objId: null, source: a.source, message: 'error' in a.read ? a.read.error : 'нет дня' });
      continue;
    }
    const day = refusedOf(a.day);
    if ('error' in a.read) {
      day.refused.push({ objId: null, source: a.source, message: a.read.error });
      continue;
    }
    const kind: AnswerKind = a.read.kind;
    for (const o of a.read.objects) {
      if ('error' in o) {
        day.refused.push({ objId: o.objId ?? null, source: a.source, message: o.error });
        continue;
      }
      const object = day.objects.get(o.objId) ?? {};
      object[kind] = o.raw;
      day.objects.set(o.objId, object);
    }
  }
  if (undated.length && days.size === 0) return [{ day: '', objects: 0, changed: 0, refused: undated }];
  const results: RegistryDayResult[] = [];
  const touched = new Set<number>();
  for (const day of [...days.keys()].sort()) {
    const { objects, refused } = days.get(day)!;
    // an object with an answer refused that day is refused whole (its other answers wait for a good day)
    const bad = new Set(refused.map((r) => r.objId).filter((id): id is number => id !== null));
    let changed = 0;
    let kept = 0;
    let done = 0;
    for (const [objId, answersOf] of objects) {
      done++;
      if (bad.has(objId)) continue;
      try {
        if (await host.db.transaction((tx) => keepObjectDay(tx, objId, day, answersOf))) changed++;
        kept++;
        touched.add(objId);
      } catch (error) {
        refused.push({ objId, source: day, message: `не записан: ${(error as Error).message}` });
      }
      if (done % 200 === 0) onProgress?.({ day, done, total: objects.size });
    }
    onProgress?.({ day, done: objects.size, total: objects.size });
    await saveRegistryDay(host.db, day, kept, refused);
    results.push({ day, objects: kept, changed, refused });
  }
  await matchObjects(host.db, [...touched]);
  await audit(host.db, actor, 'registry.import', `реестр: ${results.map((r) => r.day).join(', ')}`, null, {
    days: results.map((r) => ({
      day: r.day,
      objects: r.objects,
      changed: r.changed,
      refused: r.refused.length,
    })),
  });
  host.invalidate();
  if (undated.length) results.unshift({ day: '', objects: 0, changed: 0, refused: undated });
  return results;
}

/**
 * Matches objects to our projects and buildings (registry/match.ts): a hand link or unlink wins; the rest by
 * the automatic rule. All objects when `ids` is undefined (a project was added or moved). Then the projects'
 * registry classes are kept again.
 */
export async function matchObjects(db: Db, ids?: number[]): Promise<void> {
  const list = ids ?? (await allObjectIds(db));
  if (list.length === 0) return;
  const projects = await projectsToMatch(db);
  const objects = await objectsToMatch(db, list);
  const factsOf = (o: ObjectToMatch) =>
    (typeof o.facts === 'string' ? JSON.parse(o.facts) : o.facts) as RegistryFacts;
  const decided = objects.map((o) => ({
    o,
    projectId: o.linked ? (o.link ?? null) : matchProject(factsOf(o), projects),
  }));
  // the building keys of the projects matched, in one read
  const keys = await buildingKeysOf(db, [
    ...new Set(decided.map((d) => d.projectId).filter((id): id is number => id !== null)),
  ]);
  for (const { o, projectId } of decided) {
    const building = projectId === null ? null : matchBuilding(factsOf(o), keys.get(projectId) ?? []);
    const match = o.linked ? 'hand' : projectId === null ? 'none' : 'auto';
    // written only where it changed: a day's import matches every object it names
    if (o.project_id !== projectId || o.building !== building || o.match !== match)
      await setMatch(db, o.obj_id, projectId, building, match);
  }
  // the projects' classes by the registry follow their objects; the held reads are made again
  await keepRegistryClasses(db);
  await bumpRegistryVersion(db);
}

/** A hand link of an object to a project (or, with null, an unlink): audited, wins over the rule. */
export async function linkObject(host: Host, objId: number, projectId: number | null, actor: Actor) {
  const [before] = await objectsToMatch(host.db, [objId]);
  if (!before) throw new NotFoundError(`объект реестра ${objId} не найден`);
  if (projectId !== null) {
    if (!(await projectExists(host.db, projectId))) throw new NotFoundError(`проект ${projectId} не найден`);
  }
  await host.db.transaction(async (tx) => {
    await putLink(tx, objId, projectId);
    await audit(
      tx,
      actor,
      projectId === null ? 'registry.unlink' : 'registry.link',
      `объект реестра ${objId}`,
      null,
      {
        projectId,
      },
    );
  });
  await matchObjects(host.db, [objId]);
  host.invalidate();
  return objectMatch(host.db, objId);
}

/** The hand link taken back: the automatic rule decides again. */
export async function unlinkObject(host: Host, objId: number, actor: Actor) {
  const [before] = await objectsToMatch(host.db, [objId]);
  if (!before) throw new NotFoundError(`объект реестра ${objId} не найден`);
  await host.db.transaction(async (tx) => {
    await deleteLink(tx, objId);
    await audit(
      tx,
      actor,
      'registry.unlink',
      `объект реестра ${objId}`,
      { projectId: before.link ?? null },
      null,
    );
  });
  await matchObjects(host.db, [objId]);
  host.invalidate();
  return objectMatch(host.db, objId);
}

/** Every object's states made again from its raw answers (`rebuild`): the same bytes as the imports made. */
export async function rebuildRegistry(db: Db): Promise<number> {
  const ids = await registryObjectIds(db);
  for (const id of ids) await db.transaction((tx) => replayObject(tx, id, null));
  await matchObjects(db, ids);
  return ids.length;
}
