import { buildingKey } from '@cena-metra/contract';
import type { Db } from '../src/db/driver.js';
import type { Snapshot } from '../src/ingest/snapshot.js';
import { fromDay } from '../src/lib/days.js';
import type { OracleSnapshot } from './oracle.js';

/**
 * Every derived datum the import keeps (DESIGN §11.1), in a canonical order and as stored — text as text,
 * the pace summaries' gzipped bodies as hex — so that two states compare byte for byte.
 */
/** Every table a project's data live in (emptied between cases). */
export const PROJECT_TABLES =
  'flat_observation, flat_segment, series_month, flat_event, summary_project, daily_summary, pace_summary, ' +
  'rank_month, chess_latest, ' +
  'project_latest, snapshot, flat, project, developer';

const chessRows = (db: Db) =>
  db.query<{ body: Uint8Array }>('select project_id, body from chess_latest order by 1');

export async function keptData(db: Db) {
  const hex = (rows: { body: Uint8Array }[]) =>
    rows.map((r) => ({ ...r, body: Buffer.from(r.body).toString('hex') }));
  return {
    segments: await db.query('select * from flat_segment order by project_id, flat_id, start_day'),
    series: (
      await db.query<{ series_all: Uint8Array; series_available: Uint8Array }>(
        `select project_id, month::text, days, series_all, series_available from series_month
         order by project_id, month`,
      )
    ).map((r) => ({
      ...r,
      series_all: Buffer.from(r.series_all).toString('hex'),
      series_available: Buffer.from(r.series_available).toString('hex'),
    })),
    events: await db.query('select * from flat_event order by project_id, day, flat_id, kind'),
    summaries: await db.query(
      `select date::text, project_id, is_new_project, flats_count, new_flats, removed_flats, price_up,
         price_down, avg_change_percent, avg_meter_price, area_changed
       from summary_project order by project_id, date`,
    ),
    pace: hex(
      await db.query<{ body: Uint8Array }>(
        'select project_id, status, rooms, body from pace_summary order by project_id, status, rooms',
      ),
    ),
    chess: hex(await chessRows(db)),
    ranks: hex(
      await db.query<{ body: Uint8Array }>(
        'select project_id, status, month::text, reach::text, body, hash from rank_month order by 1, 2, 3',
      ),
    ),
    latest: await db.query(
      'select project_id, status, day::text, summary, distribution from project_latest order by 1, 2',
    ),
    partial: await db.query('select project_id, date::text, partial from snapshot order by 1, 2'),
    firstSeen: await db.query('select id, first_seen::text from flat order by id'),
  };
}

/** A random market's list as the importer takes it; `variant` moves one price (a replaced list). */
export function toSnapshot(project: number, s: OracleSnapshot, variant = 0): Snapshot {
  return {
    date: fromDay(s.day),
    developer: 'Свойство',
    project: `Проект ${project}`,
    source: 'test',
    complete: s.complete,
    // a variant of the list (a replaced snapshot): one price moved
    flats: [...s.flats].map(([id, rec], i) => ({
      externalId: id,
      rec: {
        ...rec,
        building: buildingKey(rec.building),
        price: variant && i === 0 ? rec.price + 10_000 * variant : rec.price,
      },
    })),
  };
}
