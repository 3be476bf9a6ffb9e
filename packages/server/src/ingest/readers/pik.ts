import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { printable } from '../snapshot.js';
import { dateFromFileName, type Reader, type ReadItem, type ReadOptions, validated } from './types.js';

export function looksLikePik(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  const first = Array.isArray(o.flats) ? (o.flats[0] as Record<string, unknown> | undefined) : undefined;
  return o.date === undefined && !!first && typeof first === 'object' && 'block' in first && 'bulk' in first;
}

interface PikFlat {
  id?: unknown;
  status?: unknown;
  rooms?: unknown;
  floor?: unknown;
  number?: unknown;
  price?: unknown;
  area?: unknown;
  finish?: { isFinish?: boolean; whiteBox?: boolean } | null;
  furniture?: unknown;
  block?: { name?: unknown } | null;
  bulk?: { name?: unknown; title?: unknown; settlement_year?: unknown } | null;
  section?: { number?: unknown } | null;
  /** roubles off the price the site shows crossed out (0: none) */
  discount?: unknown;
  booking_cost?: unknown;
  layout?: { flat_plan_png?: unknown } | null;
}

/** What PIK offers beside the price (DESIGN §11.4): the crossed-out price is price + discount. */
function pikOffer(f: PikFlat) {
  const discount = typeof f.discount === 'string' ? Number(f.discount) : f.discount;
  return {
    oldPrice:
      typeof discount === 'number' && discount > 0 && typeof f.price === 'number' ? f.price + discount : null,
    bookingCost: f.booking_cost ?? null,
    planUrl: f.layout?.flat_plan_png ?? null,
  };
}

const PIK_STATUS: Record<string, string> = { free: 'AVAILABLE', reserve: 'RESERVED' };

/** PIK's finish flags → our finish text (normalised later like any other). */
function pikFinish(f: PikFlat): string {
  if (f.furniture === true) return 'FURNITURE';
  if (f.finish?.whiteBox) return 'WHITE';
  if (f.finish?.isFinish) return 'FINE_FINISHING';
  if (f.finish && f.finish.isFinish === false) return 'BLACK';
  return 'UNKNOWN';
}

/** Maps a raw PIK flats API response (DESIGN §3.2) to a snapshot; developer «ПИК», project = block.name. */
export function pikSnapshot(response: unknown, path: string, options: ReadOptions): ReadItem {
  const file = basename(path);
  const date = options.date ?? dateFromFileName(path);
  if (!date) return { errors: [`${file}: date: укажите дату снимка (--date) или назовите файл по дате`] };
  const body = response as { flats?: unknown };
  if (!Array.isArray(body?.flats))
    return { errors: [`${file}: flats: ответ PIK должен содержать массив flats`] };
  const flats = (body.flats as PikFlat[]).map((f) => ({
    id: f.id,
    building: f.bulk?.title ?? f.bulk?.name,
    section: f.section?.number ?? null,
    floor: f.floor,
    number: f.number,
    rooms: f.rooms === 'studio' ? 0 : f.rooms,
    area: f.area,
    finish: pikFinish(f),
    // PIK writes 0 when a building has no settlement year yet
    settlementDate: f.bulk?.settlement_year ? f.bulk.settlement_year : null,
    price: f.price,
    status: typeof f.status === 'string' ? (PIK_STATUS[f.status] ?? f.status) : f.status,
    ...pikOffer(f),
  }));
  const project = options.project ?? (body.flats as PikFlat[])[0]?.block?.name;
  return validated({ date, developer: options.developer ?? 'ПИК', project, flats }, { file }, 'pik');
}

async function* read(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    yield {
      errors: [`${basename(path)}: не удалось разобрать JSON: ${printable((error as Error).message)}`],
    };
    return;
  }
  yield pikSnapshot(parsed, path, options);
}

/** A raw response of the PIK flats API (DESIGN §3.2): developer «ПИК», project = block.name. */
export const pikReader: Reader = {
  format: 'pik',
  detect: (_path, head) =>
    /"block"\s*:/.test(head) && /"bulk"\s*:/.test(head) && !/"date"\s*:/.test(head.slice(0, 200)),
  read,
};
