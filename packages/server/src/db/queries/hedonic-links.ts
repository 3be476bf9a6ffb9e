import type { Db } from '../driver.js';
import { base64 } from '../kept.js';

// The hedonic index's kept links (migration 34, use-cases/hedonic-links.ts): one row per scope × rooms group.

/** A kept row as a round reads it: what it was made from (its members' data versions, its windows) and its body. */
export interface KeptLinkRow {
  scope: string;
  rooms: string;
  members: string;
  /** db/kept.ts `decodeWindows`; null for a row made before its windows were kept (migration 35) */
  windows: Uint8Array | null;
  body: Uint8Array;
  /** rooms «all» of the market, a region or a city: its latest window's fit (db/kept.ts `decodeFairFit`) */
  fit: Uint8Array | null;
}

/** Every kept row (small: a row is ten doubles a month of its segment). */
export async function keptLinkRows(db: Db): Promise<KeptLinkRow[]> {
  const rows = (await db.binaryRows(
    'select scope, rooms, members, windows, body, fit from hedonic_link',
    [],
    ['text', 'text', 'text', 'bytea', 'bytea', 'bytea'],
  )) as [string, string, string, Uint8Array | null, Uint8Array, Uint8Array | null][];
  return rows.map(([scope, rooms, members, windows, body, fit]) => ({
    scope,
    rooms,
    members,
    windows,
    body,
    fit,
  }));
}

/** A kept place's latest window's fit and the members it was made from; null when none is kept. */
export async function keptFairFit(
  db: Db,
  scope: string,
): Promise<{ members: string; fit: Uint8Array } | null> {
  const rows = (await db.binaryRows(
    `select members, fit from hedonic_link where scope = $1 and rooms = 'all' and fit is not null`,
    [scope],
    ['text', 'bytea'],
  )) as [string, Uint8Array][];
  return rows.length ? { members: rows[0][0], fit: rows[0][1] } : null;
}

/** One scope's kept links, the body as base64 (db/kept.ts `decodeLinks`); null when none are kept. */
export async function keptLinks(
  db: Db,
  scope: string,
  rooms: string,
): Promise<{ members: string; body: string } | null> {
  const rows = await db.query<{ members: string; body: string }>(
    `select members, ${base64('body')} from hedonic_link where scope = $1 and rooms = $2`,
    [scope, rooms],
  );
  return rows[0] ?? null;
}

export async function saveLinks(
  db: Db,
  row: {
    scope: string;
    rooms: string;
    members: string;
    windows: Buffer;
    body: Buffer;
    fit: Uint8Array | null;
  },
): Promise<void> {
  await db.query(
    `insert into hedonic_link (scope, rooms, members, windows, body, fit)
     values ($1, $2, $3, decode($4, 'base64'), decode($5, 'base64'), decode($6, 'base64'))
     on conflict (scope, rooms) do update
       set members = excluded.members, windows = excluded.windows, body = excluded.body, fit = excluded.fit`,
    [
      row.scope,
      row.rooms,
      row.members,
      row.windows.toString('base64'),
      row.body.toString('base64'),
      row.fit && Buffer.from(row.fit.buffer, row.fit.byteOffset, row.fit.byteLength).toString('base64'),
    ],
  );
}

/** Removes the rows of scopes no longer kept; every row when `scopes` is null (a rebuild). */
export async function deleteLinks(db: Db, scopes: string[] | null): Promise<void> {
  if (scopes === null) await db.query('delete from hedonic_link');
  else if (scopes.length) await db.query('delete from hedonic_link where scope = any($1::text[])', [scopes]);
}

/** Every kept row, in order (the rebuild's equality test compares them). */
export async function keptLinkBodies(
  db: Db,
): Promise<{ scope: string; rooms: string; members: string; body: string; fit: string | null }[]> {
  return db.query(
    `select scope, rooms, members, ${base64('body')}, ${base64('fit')} from hedonic_link order by scope, rooms`,
  );
}
