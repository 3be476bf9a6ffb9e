import type { EventKind, Facing } from './enums.js';

export const PRODUCT_NAME = 'Цена метра';

export const FACING_LABELS: Record<Facing, string> = {
  BLACK: 'Без отделки',
  WHITE: 'Предчистовая',
  FINE_FINISHING: 'С отделкой',
  FURNITURE: 'С мебелировкой',
  UNKNOWN: 'Неизвестно',
};

/** Facing label; anything that is not a known code reads «Неизвестно» (spec §3). */
export function facingLabel(code: string): string {
  return (FACING_LABELS as Record<string, string>)[code] ?? FACING_LABELS.UNKNOWN;
}

/** Rooms key "0" is a studio, otherwise "{n}-комнатная" (spec §3). */
export function roomsLabel(rooms: string | number): string {
  const key = String(rooms);
  return key === '0' ? 'Студия' : `${key}-комнатная`;
}

/**
 * The building key (DESIGN §10.3): trimmed, inner spaces collapsed, a leading «корпус», «корп.» or «к.»
 * (any case) removed, so «Корпус 31», «корп. 31» and «31» are one building «31». A name that is only the
 * word stays as it is.
 */
export function buildingKey(name: string): string {
  const text = name.replace(/\s+/g, ' ').trim();
  const key = text.replace(/^(?:корпус|корп\.|к\.)\s*/i, '').trim();
  return key || text;
}

/** A building label gets the prefix «Корпус» unless it already has it (spec §3). */
export function buildingLabel(name: string): string {
  return /^корпус/i.test(name.trim()) ? name.trim() : `Корпус ${name.trim()}`;
}

/**
 * The settlement key of a delivered building (DESIGN §10.3): «сдан», «дом сдан», «готов…», «ключи» —
 * shown «Сдан», apart from a missing date ("null"), and sorted after every date.
 */
export const SETTLEMENT_DONE = 'DONE';

/** Settlement date YYYY-MM-DD shown as its quarter: «4 кв. 2026 г.» (spec §3). */
export function quarterLabel(date: string): string {
  if (date === SETTLEMENT_DONE) return 'Сдан';
  const m = /^(\d{4})-(\d{2})-\d{2}$/.exec(date);
  if (!m) return date;
  const quarter = Math.floor((Number(m[2]) - 1) / 3) + 1;
  return `${quarter} кв. ${m[1]} г.`;
}

export const FLATS_COUNT_LABELS = ['Все', 'Студии', '1-комн.', '2-комн.', '3+ комн.'] as const;
/** The count series `flatsCountList` gains for status ALL (DESIGN §10.2): lots on sale and reserved lots. */
export const STATUS_COUNT_LABELS = ['Свободные', 'Забронированы'] as const;

/** One event of §4.4 as a table row says it (the flat is feminine: «квартира»). */
export const EVENT_KIND_LABELS: Record<EventKind, string> = {
  NEW: 'Новая',
  REMOVED: 'Снята',
  PRICE_UP: 'Подорожала',
  PRICE_DOWN: 'Подешевела',
  AREA_CHANGED: 'Изменилась площадь',
  PROMO_STARTED: 'Началась акция',
  PROMO_ENDED: 'Закончилась акция',
};
