import type { Db } from '../driver.js';
import { base64 } from '../kept.js';

// The market's kept spans (migration 27, use-cases/market-spans.ts): one row per scope × status × rooms.

/**
 * What each kept span was made from (its members' data versions as one digest, and as [id, version] pairs
 * in base64, null for a span made before migration 40), without its body.
 */
export async function keptSpanMembers(
  db: Db,
): Promise<{ scope: string; status: string; rooms: string; members: string; versions: string | null }[]> {
  return db.query(`select scope, status, rooms, members, ${base64('versions')} from market_span`);
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
  span: { scope: string; status: string; rooms: string; members: string; body: Buffer; versions: Buffer },
): Promise<void> {
  await db.query(
    `insert into market_span (scope, status, rooms, members, body, versions) values ($1, $2, $3, $4, $5, $6)
     on conflict (scope, status, rooms) do update set members = excluded.members, body = excluded.body,
       versions = excluded.versions`,
    [span.scope, span.status, span.rooms, span.members, span.body, span.versions],
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

/**
 * What a round of the market's kept data is made from, as one word: the projects with their data, place and
 * class versions and developers. With the scopes' least size and the spans and links the round left (a row
 * taken away or changed by hand is made again), a round that finds the word of the last one it finished has
 * nothing to make.
 */
export async function roundProjects(db: Db): Promise<string> {
  const [row] = await db.query<{ n: number; v: string; d: string }>(
    `select count(*)::int as n, coalesce(sum(data_version + place_version + class_version), 0)::text as v,
       coalesce(sum(developer_id::bigint * id), 0)::text as d
     from project`,
  );
  return `${row.n}.${row.v}.${row.d}`;
}

/** What spans and links are kept: each row's key and the members it was made from, as two digests. */
export async function keptWord(db: Db): Promise<string> {
  const [row] = await db.query<{ s: string; l: string }>(
    `select (select md5(coalesce(string_agg(scope || ' ' || status || ' ' || rooms || ' ' || members, ','
               order by scope, status, rooms), '')) from market_span) as s,
       (select md5(coalesce(string_agg(scope || ' ' || rooms || ' ' || members, ',' order by scope, rooms), ''))
          from hedonic_link) as l`,
  );
  return `${row.s}.${row.l}`;
}

/** The last finished round: the words it was made from and left, and what it kept. */
export interface RoundMark {
  inputs: string;
  kept: number;
  links: number;
}

export async function lastRound(db: Db): Promise<RoundMark | null> {
  const [row] = await db.query<{ value: string }>("select value from app_meta where key = 'market_round'");
  return row ? (JSON.parse(row.value) as RoundMark) : null;
}

export async function saveRound(db: Db, round: RoundMark): Promise<void> {
  await db.query(
    `insert into app_meta (key, value) values ('market_round', $1)
     on conflict (key) do update set value = excluded.value`,
    [JSON.stringify(round)],
  );
}
