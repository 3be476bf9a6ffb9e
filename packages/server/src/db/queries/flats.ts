import { type FlatCard, offerOf } from '@cena-metra/contract';
import { developerDiscount, round2 } from '../../analytics/stats.js';
import { NotFoundError } from '../../lib/errors.js';
import type { Db } from '../driver.js';
import { RECORD_COLUMNS, recordFromRow } from '../records.js';

/**
 * The flat card: its latest listed record, ACTIVE when it is active on the project's last snapshot day,
 * first and last snapshot it was listed in, and its price history (one point per price change).
 */
export async function getFlatCard(db: Db, flatId: number): Promise<FlatCard> {
  const [flat] = await db.query<{
    id: number;
    external_id: string;
    project_id: number;
    project_name: string;
    developer_id: number;
    developer_name: string;
    last_snapshot_date: string;
  }>(
    `select f.id, f.external_id, p.id as project_id, p.name as project_name, d.id as developer_id,
            d.name as developer_name, p.last_snapshot_date
     from flat f join project p on p.id = f.project_id join developer d on d.id = p.developer_id
     where f.id = $1`,
    [flatId],
  );
  if (!flat) throw new NotFoundError(`квартира ${flatId} не найдена`);
  const rows = await db.query<Record<string, never> & { snapshot_date: string; present: boolean }>(
    `select snapshot_date, present, ${RECORD_COLUMNS} from flat_observation
     where project_id = $1 and flat_id = $2 order by snapshot_date`,
    [flat.project_id, flatId],
  );
  const listed = rows.filter((r) => r.present);
  if (listed.length === 0) throw new NotFoundError(`квартира ${flatId} не найдена`);
  const [active] = await db.query(
    'select 1 from flat_segment where project_id = $1 and flat_id = $2 and end_day is null',
    [flat.project_id, flatId],
  );
  const last = rows[rows.length - 1];
  let lastSeen = flat.last_snapshot_date;
  if (!last.present) {
    // listed until the snapshot before the one it vanished in
    const [before] = await db.query<{ date: string }>(
      'select max(date)::text as date from snapshot where project_id = $1 and date < $2',
      [flat.project_id, last.snapshot_date],
    );
    lastSeen = before.date;
  }
  const priceHistory: FlatCard['priceHistory'] = [];
  const areaHistory: FlatCard['areaHistory'] = [];
  const offerHistory: NonNullable<FlatCard['offerHistory']> = [];
  let offerShown: string | null = null;
  for (const r of listed) {
    const rec = recordFromRow(r as never);
    if (rec.offer !== offerShown) {
      offerShown = rec.offer;
      offerHistory.push({ date: r.snapshot_date, offer: offerOf(rec.offer) });
    }
    if (areaHistory.at(-1)?.area !== rec.area) areaHistory.push({ date: r.snapshot_date, area: rec.area });
    if (priceHistory.at(-1)?.price === rec.price) continue;
    priceHistory.push({ date: r.snapshot_date, price: rec.price, meterPrice: round2(rec.price / rec.area) });
  }
  const statusHistory: FlatCard['statusHistory'] = [];
  for (const r of rows) {
    const state = !r.present
      ? 'ABSENT'
      : recordFromRow(r as never).status === 'RESERVED'
        ? 'RESERVED'
        : 'AVAILABLE';
    if (statusHistory.at(-1)?.state !== state) statusHistory.push({ date: r.snapshot_date, state });
  }
  const rec = recordFromRow(listed[listed.length - 1] as never);
  const own = developerDiscount(rec);
  return {
    flatId: flat.id,
    externalId: flat.external_id,
    developerId: flat.developer_id,
    developerName: flat.developer_name,
    projectId: flat.project_id,
    projectName: flat.project_name,
    record: {
      building: rec.building,
      section: rec.section,
      floor: rec.floor,
      number: rec.number,
      rooms: rec.rooms,
      area: rec.area,
      facing: rec.facing,
      settlementDate: rec.settlementDate,
      price: rec.price,
      basePrice: rec.basePrice,
      meterPrice: round2(rec.price / rec.area),
      listingStatus: rec.status,
    },
    status: active ? 'ACTIVE' : 'REMOVED',
    firstSeen: listed[0].snapshot_date,
    lastSeen,
    priceHistory,
    statusHistory,
    areaHistory,
    offer: offerOf(rec.offer),
    // the one rule of the summary table's column and the discounts table's «по данным застройщика»
    developerDiscount: own === null ? null : round2(own),
    offerHistory,
  };
}
