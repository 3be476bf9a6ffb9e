import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Db } from '../db/driver.js';
import {
  deleteRaw,
  markSeen,
  putRaw,
  rawHashes,
  rawsFrom,
  replaceStates,
  stateBefore,
  upsertObject,
} from '../db/queries/registry.js';
import { factsOf } from '../registry/answers.js';
import {
  type AnswerKind,
  applyDay,
  type DayAnswers,
  EMPTY_STATE,
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

const hashOf = (json: string) => createHash('sha1').update(json).digest('hex');

/**
 * Keeps one object's answers of `day`: each raw answer that differs from the object's previous one of its
 * kind (an answer that restates it is the same information), then the states from that day on. Call in a
 * transaction: all of it or nothing. Whether the object's states changed.
 */
export async function keepObjectDay(
  db: Db,
  objId: number,
  day: string,
  answers: ObjectDay,
): Promise<boolean> {
  let stored = false;
  const hashes = await rawHashes(db, objId, day);
  for (const [kind, raw] of Object.entries(answers) as [AnswerKind, unknown][]) {
    const json = JSON.stringify(raw);
    const hash = hashOf(json);
    const { before, on } = hashes.get(kind) ?? { before: null, on: null };
    if (hash === before) {
      // the day restates the answer before it: a different one kept for this day before is taken back
      if (on !== null) {
        await deleteRaw(db, objId, kind, day);
        stored = true;
      }
    } else if (hash !== on) {
      await putRaw(db, objId, kind, day, hash, gzipSync(json));
      stored = true;
    }
  }
  if (stored) return replayObject(db, objId, day);
  // nothing new: the object was seen that day (a new object always stores its first answers)
  await markSeen(db, objId, day);
  return false;
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
  const raws = await rawsFrom(db, objId, from);
  for (let i = 0; i < raws.length; ) {
    const day = raws[i].day;
    const answers: DayAnswers = {};
    for (; i < raws.length && raws[i].day === day; i++) {
      const kind = raws[i].kind as AnswerKind;
      const facts = factsOf(kind, JSON.parse(gunzipSync(raws[i].body).toString('utf8')), objId);
      // a kept answer was read when it came: it reads the same way again
      if ('error' in facts) throw new Error(`реестр: объект ${objId}, ${day}: ${facts.error}`);
      answers[kind] = facts;
    }
    state = applyDay(state, answers);
    const next = stateJson(state);
    if (next !== json) rows.push({ day, state: next });
    json = next;
  }
  if (json !== null) await upsertObject(db, objId, from ?? raws[0].day, json);
  await replaceStates(db, objId, from, rows);
  return rows.length > 0;
}
