import { buildingKey, EMPTY_OFFER, offerText } from '@cena-metra/contract';
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
  'rank_month, chess_latest, offer_day, hedonic_month, active_latest, pace_tail, pace_change, ' +
  'project_latest, snapshot, flat, project, developer';

const chessRows = (db: Db) =>
  db.query<{ body: Uint8Array }>('select project_id, body from chess_latest order by 1');

export async function keptData(db: Db) {
  const hex = <T extends { body: Uint8Array }>(rows: T[]) =>
    rows.map((r) => ({ ...r, body: Buffer.from(r.body).toString('hex') }));
  return {
    segments: await db.query('select * from flat_segment order by project_id, flat_id, start_day'),
    series: await db.query(
      `select project_id, month::text, days, series_all, series_available, columns_all, columns_available
       from series_month order by project_id, month`,
    ),
    events: await db.query('select * from flat_event order by project_id, day, flat_id, kind'),
    summaries: await db.query(
      `select date::text, project_id, is_new_project, flats_count, new_flats, removed_flats, price_up,
         price_down, avg_change_percent, avg_meter_price, area_changed
       from summary_project order by project_id, date`,
    ),
    pace: hex(
      await db.query<{ project_id: number; status: string; rooms: string; part: string; body: Uint8Array }>(
        'select project_id, status, rooms, part::text, body from pace_summary order by project_id, status, rooms, part',
      ),
    ),
    tails: hex(
      await db.query<{ body: Uint8Array }>(
        'select project_id, status, rooms, whole, body from pace_tail order by 1, 2, 3',
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
    offerDays: await db.query('select project_id, day::text, body from offer_day order by 1, 2'),
    firstSeen: await db.query('select id, first_seen::text from flat order by id'),
    active: await db.query('select project_id, day::text, body from active_latest order by 1'),
    hedonic: hex(
      await db.query<{ body: Uint8Array }>(
        'select project_id, month::text, body from hedonic_month order by 1, 2',
      ),
    ),
  };
}

/**
 * A flat's offer in a random market (§11.4), decided by its id and the day: now a cash price, now a
 * promotion, now both or none — offers that come, change and go, as the kept term sums must follow.
 */
function offerFor(id: string, day: number, price: number): string | null {
  let h = day;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  const pick = h % 5;
  if (pick === 0) return null;
  const cash = Math.round(price * 0.97);
  if (pick === 1) return offerText({ ...EMPTY_OFFER, offerPrices: { cash } });
  if (pick === 2) return offerText({ ...EMPTY_OFFER, promo: 'Скидка' });
  if (pick === 3)
    return offerText({ ...EMPTY_OFFER, oldPrice: price + 100_000, offerPrices: { cash, ипотека: price } });
  return null;
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
    flats: [...s.flats].map(([id, rec], i) => {
      const price = variant && i === 0 ? rec.price + 10_000 * variant : rec.price;
      return {
        externalId: id,
        rec: { ...rec, building: buildingKey(rec.building), price, offer: offerFor(id, s.day, price) },
      };
    }),
  };
}
