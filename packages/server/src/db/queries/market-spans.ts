import type { Db } from '../driver.js';
import { base64 } from '../kept.js';

// The market's kept spans (migration 27, use-cases/market-spans.ts): one row per scope × status × rooms.

/** What each kept span was made from (its members' data versions), without its body. */
export async function keptSpanMembers(
  db: Db,
): Promise<{ scope: string; status: string; rooms: string; members: string }[]> {
  return db.query('select scope, status, rooms, members from market_span');
}

/** One kept span, its body as base64 (db/kept.ts bytes); null when none is kept. */
export async function keptSpan(
  db: Db,
  scope: string,
  status: string,
  rooms: string,
): Promise<{ members: string; body: string } | null> {
  const rows = await db.query<{ members: string; body: string }>(
    `select members, ${base64('body')} from market_span where scope = $1 and status = $2 and rooms = $3`,
    [scope, status, rooms],
  );
  return rows[0] ?? null;
}

export async function saveSpan(
  db: Db,
  span: { scope: string; status: string; rooms: string; members: string; body: Buffer },
): Promise<void> {
  await db.query(
    `insert into market_span (scope, status, rooms, members, body) values ($1, $2, $3, $4, $5)
     on conflict (scope, status, rooms) do update set members = excluded.members, body = excluded.body`,
    [span.scope, span.status, span.rooms, span.members, span.body],
  );
}

/** Removes the spans of scopes no longer kept (a place emptied, a developer below the size kept). */
export async function deleteSpans(db: Db, scopes: string[]): Promise<void> {
  if (scopes.length) await db.query('delete from market_span where scope = any($1::text[])', [scopes]);
}

/** Every kept span (a rebuild makes them again). */
export async function clearSpans(db: Db): Promise<void> {
  await db.query('delete from market_span');
}

/** The kept spans' bodies, in order (the rebuild's equality test compares them). */
export async function keptSpanBodies(
  db: Db,
): Promise<{ scope: string; status: string; rooms: string; members: string; body: string }[]> {
  return db.query(
    `select scope, status, rooms, members, ${base64('body')} from market_span order by scope, status, rooms`,
  );
}
