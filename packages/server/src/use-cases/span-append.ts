import { tailServes } from '../analytics/pace-tail.js';
import { appendedSpanSteps, type UnionSpan } from '../analytics/pace-union.js';
import type { PackedSummary } from '../analytics/packed-summary.js';
import type { Db } from '../db/driver.js';
import { bytes, decodeSpan } from '../db/kept.js';
import { decodePacked } from '../db/pace-form.js';
import { keptSpan } from '../db/queries/market-spans.js';
import { paceChanges, paceTailsFor } from '../db/queries/pace-tails.js';
import { lowerBound } from '../lib/sorted.js';
import { Slices, stepped } from '../lib/steps.js';
import type { ProjectRow } from '../read/market-projects.js';

/**
 * A kept span brought up to date after a day's imports (DESIGN §11.1, use-cases/market-spans.ts): each
 * import notes the first day its change of a project's summaries may move (derive/pace.ts, on top of the
 * project's data version), and a span keeps the versions of the members it was made from. The points
 * before the least such day of its members stand; the rest are swept again over the members' tails
 * (analytics/pace-tail.ts) — a few weeks of each, not its history: the same bytes as a sweep over the
 * whole summaries (pace-union.ts appendedSpanSteps). A span that cannot say (made before migration 40,
 * its members another set, a version without its note, a change before a tail) is made whole.
 */

type Member = Pick<ProjectRow, 'id' | 'data_version'>;

/** A span's members as kept with it: [id, version] pairs as little-endian Int32s. */
export function encodeVersions(members: readonly Member[]): Buffer {
  const out = Buffer.alloc(members.length * 8);
  members.forEach((p, i) => {
    out.writeInt32LE(p.id, i * 8);
    out.writeInt32LE(p.data_version, i * 8 + 4);
  });
  return out;
}

/** Each project's noted changes: version → the first day it may move. */
export type Changes = Map<number, Map<number, number>>;

export async function readChanges(db: Db): Promise<Changes> {
  const out: Changes = new Map();
  for (const [p, v, d] of await paceChanges(db)) {
    const of = out.get(p) ?? new Map<number, number>();
    of.set(v, d);
    out.set(p, of);
  }
  return out;
}

/**
 * The first day a span made from `held` ([id, version] pairs) may have moved for `members` now: +∞ when
 * nothing did, null when it cannot be told (another set of members, a version step without its note).
 */
export function changedSince(held: Buffer, members: readonly Member[], changes: Changes): number | null {
  if (held.length !== members.length * 8) return null;
  let since = Number.POSITIVE_INFINITY;
  for (let i = 0; i < members.length; i++) {
    const { id, data_version: now } = members[i];
    if (held.readInt32LE(i * 8) !== id) return null;
    const was = held.readInt32LE(i * 8 + 4);
    if (was === now) continue;
    if (was > now) return null;
    const noted = changes.get(id);
    for (let v = was; v < now; v++) {
      const day = noted?.get(v);
      if (day === undefined) return null;
      if (day < since) since = day;
    }
  }
  return since;
}

/** A stale span to bring up to date: as kept, and the first day its members moved. */
export interface Append {
  scope: string;
  members: ProjectRow[];
  version: string;
  old: UnionSpan;
  since: number;
}

/**
 * The span of `scope` as kept and the day its members moved, when it can be brought up to date from their
 * tails; null when it is to be made whole.
 */
export async function appendOf(
  db: Db,
  scope: string,
  members: ProjectRow[],
  version: string,
  filter: { status: string; rooms: string },
  held: string | null,
  changes: Changes,
): Promise<Append | null> {
  if (!held) return null;
  const since = changedSince(bytes(held), members, changes);
  if (since === null) return null;
  const kept = await keptSpan(db, scope, filter.status, filter.rooms);
  if (!kept) return null;
  const old = decodeSpan(bytes(kept.body));
  // a span with no day before the change is made whole
  if (lowerBound(old.days, since) < 1) return null;
  return { scope, members, version, old, since };
}

/** The members' tails of a filter, read once for every span of it: by project, with the first day each serves. */
export async function readTails(
  db: Db,
  filter: { status: string; rooms: string },
  ids: number[],
): Promise<Map<number, { tail: PackedSummary; serves: number }>> {
  const out = new Map<number, { tail: PackedSummary; serves: number }>();
  const slices = new Slices();
  for (const [id, whole, body] of await paceTailsFor(db, filter.status, filter.rooms, ids)) {
    await slices.turn();
    const tail = decodePacked([body]);
    out.set(id, { tail, serves: tailServes(tail, whole === 1) });
  }
  return out;
}

/** The span brought up to date from its members' tails; null when a member's tail does not serve it. */
export async function appendedSpan(
  a: Append,
  tails: Map<number, { tail: PackedSummary; serves: number }>,
): Promise<UnionSpan | null> {
  const start = a.old.days[lowerBound(a.old.days, a.since) - 1];
  const chosen: PackedSummary[] = [];
  for (const p of a.members) {
    const t = tails.get(p.id);
    if (!t || t.serves > start) return null;
    chosen.push(t.tail);
  }
  return stepped(appendedSpanSteps(a.old, a.since, chosen));
}
