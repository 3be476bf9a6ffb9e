import { gzipSync } from 'node:zlib';
import { HOUSING_CLASS_NAMES } from '@cena-metra/contract';
import { lightHistory, type StateAt } from '../analytics/registry.js';
import type { Db } from '../db/driver.js';
import { inflate } from '../db/kept.js';
import { encodeHistory } from '../db/kept-history.js';
import {
  deleteRaw,
  keptHistory,
  markSeen,
  putKept,
  putRaw,
  putSeen,
  rawBody,
  rawsFrom,
  rawsUpTo,
  registryObjectIds,
  replaceStates,
  seenDays,
  stateBefore,
  statesBefore,
  upsertObject,
} from '../db/queries/registry.js';
import { heldObjectRows } from '../db/queries/registry-held.js';
import { registryClasses, setRegistryClass } from '../db/queries/registry-match.js';
import { fromDay, toDay } from '../lib/days.js';
import { lowerBound } from '../lib/sorted.js';
import { answerHash, classOf, factsOf, isApartments, type RegistryFacts } from '../registry/answers.js';
import {
  type AnswerKind,
  applyDay,
  type DayAnswers,
  EMPTY_STATE,
  effectsByDay,
  type ObjectState,
  stateJson,
  stateOf,
} from '../registry/state.js';

/**
 * An object's registry data kept (DESIGN §12.3): its raw answers on the days they changed, and its states
 * replayed from them (registry/state.ts). One path for an import and a rebuild: an import stores the day's
 * raw answers and replays the object from that day; a rebuild replays it from its first — the same states
 * to the byte. An answer of an earlier day than the object's latest replays the days after it too.
 */

/** The day's raw answers of one object (its part of each answer), by kind. */
export type ObjectDay = Partial<Record<AnswerKind, unknown>>;

/**
 * Keeps one object's answers of `day`, then its states from that day on. A raw answer is kept on a day it
 * came iff it differs from the answer of the day before it came (a restated answer is no new information):
 * an answer that comes late is put between its neighbours, and the next day's answer, which restated the
 * one before, is kept when it no longer does. So the raw answers are the same whatever the order of the
 * days. Call in a transaction: all of it or nothing. Whether the object's states changed.
 */
export async function keepObjectDay(
  db: Db,
  objId: number,
  day: string,
  answers: ObjectDay,
): Promise<boolean> {
  let stored = false;
  const seen = await seenDays(db, objId);
  const d = toDay(day);
  for (const [kind, raw] of Object.entries(answers) as [AnswerKind, unknown][]) {
    const json = JSON.stringify(raw);
    const hash = answerHash(json);
    const days = seen.get(kind) ?? [];
    const i = lowerBound(days, d);
    const already = days[i] === d;
    const nextDay = already ? days[i + 1] : days[i];
    const next = nextDay === undefined ? undefined : fromDay(nextDay);
    const rows = await rawsUpTo(db, objId, kind, next ?? day);
    const before = rows.find((r) => r.day < day);
    const on = rows.find((r) => r.day === day);
    const onNext = next === undefined ? undefined : rows.find((r) => r.day === next);
    // the answer the next day had in force before this one: its own, or the one it restated (read now: this
    // day's own may be written over below)
    const nextHad = onNext ?? on ?? before;
    const keepNext =
      next !== undefined && nextHad && nextHad.hash !== hash && !onNext
        ? await rawBody(db, objId, kind, nextHad.day)
        : null;
    if (hash !== before?.hash) {
      if (hash !== on?.hash) {
        await putRaw(db, objId, kind, day, hash, gzipSync(json));
        stored = true;
      }
    } else if (on) {
      await deleteRaw(db, objId, kind, day);
      stored = true;
    }
    if (next !== undefined && nextHad) {
      if (keepNext) {
        // the next day restated what this day no longer says: its answer is kept now
        await putRaw(db, objId, kind, next, nextHad.hash, keepNext);
        stored = true;
      } else if (nextHad.hash === hash && onNext) {
        await deleteRaw(db, objId, kind, next);
        stored = true;
      }
    }
    if (!already) {
      days.splice(i, 0, d);
      await putSeen(db, objId, kind, days);
    }
  }
  if (stored) return replayObject(db, objId, day);
  // nothing new: the object was seen that day (a new object always stores its first answers)
  await markSeen(db, objId, day);
  return false;
}

/** The object's light history before `from` (none when null): the kept one cut, else made from its states. */
async function historyBefore(db: Db, objId: number, from: string | null): Promise<StateAt[]> {
  if (from === null) return [];
  const kept = await keptHistory(db, objId);
  if (kept) return kept.filter((h) => h.day < from);
  const states = await statesBefore(db, objId, from);
  return lightHistory([], effectsByDay(states));
}

/**
 * The object's kept figures' inputs made from its states (migration 31's pass over the objects kept before
 * it): the same bytes as a replay makes.
 */
export async function keepRegistryKept(db: Db): Promise<number> {
  const ids = await registryObjectIds(db);
  for (const id of ids) {
    const states = await statesBefore(db, id, null);
    if (states.length === 0) continue;
    const history = lightHistory([], effectsByDay(states));
    const facts = JSON.stringify(stateOf(states[states.length - 1].state).eff);
    await putKept(db, id, facts, encodeHistory(history));
  }
  return ids.length;
}

/**
 * The object's states from `from` on (every state when null) made again from its raw answers, and its
 * row's latest state and days seen. Whether a state was written.
 */
export async function replayObject(db: Db, objId: number, from: string | null): Promise<boolean> {
  const before = await stateBefore(db, objId, from);
  let state = before === null ? EMPTY_STATE : stateOf(before);
  let json = before === null ? null : stateJson(state);
  const rows: { day: string; state: string }[] = [];
  const effs: StateAt[] = [];
  const raws = await rawsFrom(db, objId, from);
  for (let i = 0; i < raws.length; ) {
    const day = raws[i].day;
    const answers: DayAnswers = {};
    for (; i < raws.length && raws[i].day === day; i++) {
      const kind = raws[i].kind as AnswerKind;
      const facts = factsOf(kind, JSON.parse(inflate(raws[i].body).toString('utf8')), objId);
      // a kept answer was read when it came: it reads the same way again
      if ('error' in facts) throw new Error(`реестр: объект ${objId}, ${day}: ${facts.error}`);
      answers[kind] = facts;
    }
    state = applyDay(state, answers);
    const next = stateJson(state);
    if (next !== json) {
      rows.push({ day, state: next });
      effs.push({ day, eff: state.eff });
    }
    json = next;
  }
  if (json !== null) {
    const history = lightHistory(await historyBefore(db, objId, from), effs);
    const facts = JSON.stringify((JSON.parse(json) as ObjectState).eff);
    await upsertObject(db, objId, from ?? raws[0].day, json, facts, encodeHistory(history));
  }
  await replaceStates(db, objId, from, rows);
  return rows.length > 0;
}

/**
 * Each project's registry class kept (DESIGN §12.3): the class of most of its matched objects' flats (an
 * object without a flats count counts one; ties: the class first in the registry's order), none when no
 * object names a class. Written only where it changed. After every matching (an import, a link, a rebuild).
 */
export async function keepRegistryClasses(db: Db): Promise<number> {
  const flats = new Map<number, Map<string, number>>();
  for (const o of await heldObjectRows(db)) {
    if (o.project_id === null) continue;
    const eff = (typeof o.facts === 'string' ? JSON.parse(o.facts) : o.facts) as RegistryFacts;
    // the class of its flats: objects of apartments are kept apart
    const cls = isApartments(eff) ? undefined : classOf(eff);
    if (!cls) continue;
    const of = flats.get(o.project_id) ?? new Map<string, number>();
    of.set(cls, (of.get(cls) ?? 0) + (eff.flats ?? 1));
    flats.set(o.project_id, of);
  }
  const wanted = new Map<number, string>();
  for (const [id, of] of flats) {
    let best: string | null = null;
    for (const c of HOUSING_CLASS_NAMES)
      if (of.has(c) && (best === null || of.get(c)! > of.get(best)!)) best = c;
    if (best) wanted.set(id, best);
  }
  const kept = await registryClasses(db);
  let changed = 0;
  for (const [id, cls] of wanted)
    if (kept.get(id) !== cls) {
      await setRegistryClass(db, id, cls);
      changed++;
    }
  for (const id of kept.keys())
    if (!wanted.has(id)) {
      await setRegistryClass(db, id, null);
      changed++;
    }
  return changed;
}
