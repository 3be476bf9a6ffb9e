import { createHash } from 'node:crypto';
import {
  buildingKey,
  CONTROL_CHARACTERS_MESSAGE,
  dataDateProblem,
  hasControlCharacters,
  MAX_ID_LENGTH,
  MAX_NAME_LENGTH,
  SETTLEMENT_DONE,
} from '@cena-metra/contract';
import type { FlatRecord } from '../analytics/types.js';
import { cleanName, normaliseFinish, normaliseSettlementDate } from './normalise.js';
import { readOffer } from './offer.js';
import { type PlaceInput, readPlaceInput } from './place.js';

/** A validated, normalised snapshot: one project's whole price list on one date. */
export interface Snapshot {
  date: string;
  developer: string;
  project: string;
  flats: { externalId: string; rec: FlatRecord }[];
  source: string;
  /**
   * The list is whole even if it is much shorter than the ones before (a real sell-out): never partial
   * (DESIGN §10.4; `complete: true` in the snapshot, `--complete` on the command line).
   */
  complete?: boolean;
  /** the project's place as the list gives it (DESIGN §11.3) */
  place?: PlaceInput;
  /**
   * values refused with the rest of the list kept (a place's coordinates out of range…), each naming the
   * file and the field: reported with the import's result
   */
  warnings?: string[];
  /** its contentHash, when the thread that validated it computed it (the demo's worker, demo/wire.ts) */
  contentHash?: string;
}

/** Where a snapshot came from, for messages: «file.json: [2].» or «file.ndjson: строка 5: ». */
export interface Origin {
  file: string;
  /** e.g. "[2]" for the third snapshot of a JSON array, "строка 5" for NDJSON */
  at?: string;
}

export class SnapshotValidationError extends Error {
  constructor(readonly errors: string[]) {
    super(
      errors.slice(0, 20).join('\n') + (errors.length > 20 ? `\n… и ещё ${errors.length - 20} ошибок` : ''),
    );
  }
}

const MAX_ERRORS = 100;

/** A text for a message, log or terminal: control characters written as \\uXXXX escapes. */
export function printable(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    /[\u0000-\u0008\u000b-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** What a field held, for a message: short, and never walking a nested value (it may be 100,000 deep). */
function describe(value: unknown): string {
  if (value === undefined) return 'нет значения';
  let text: string;
  if (Array.isArray(value)) text = `массив из ${value.length} элементов`;
  else if (typeof value === 'object' && value !== null) text = 'объект';
  else if (typeof value === 'string')
    // JSON.stringify escapes control characters itself
    text = JSON.stringify(value.length > 60 ? value.slice(0, 60) : value);
  else text = String(value);
  return `получено ${text.length > 60 ? `${text.slice(0, 57)}…` : text}`;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim().replace(',', '.'));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function toText(value: unknown): string | undefined {
  if (typeof value === 'string') return cleanName(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Sane bands of a flat's numbers (docs/security.md): a lot outside them is a typo, a unit error (kopecks,
 * thousands) or an attack, and one such lot would skew every average it joins, or divide by zero.
 */
export const LIMITS = {
  minArea: 1,
  maxArea: 10_000,
  minPrice: 10_000,
  maxPrice: 100_000_000_000,
  /** price per m², ₽: the cheapest regional lot is above it, the dearest Moscow penthouse below */
  minMeterPrice: 10_000,
  maxMeterPrice: 20_000_000,
  maxFloor: 1000,
  /** settlement dates: a building delivered before 1990 is not a new build, one after 2100 a typo */
  minSettlement: '1990-01-01',
  maxSettlement: '2100-12-31',
  maxRooms: 50,
} as const;

const fmt = (n: number) => n.toLocaleString('ru-RU');
// the rules' wording, made once: formatted per flat they were a tenth of the demo's import
const AREA_RULE = `должно быть от ${fmt(LIMITS.minArea)} до ${fmt(LIMITS.maxArea)} м²`;
const PRICE_RULE = `должно быть от ${fmt(LIMITS.minPrice)} до ${fmt(LIMITS.maxPrice)} ₽`;
const PPM_RANGE = `${fmt(LIMITS.minMeterPrice)}–${fmt(LIMITS.maxMeterPrice)} ₽/м²`;

/** `read` of a value, remembered per text (other values are read each time). */
function memoOnText<T>(read: (value: unknown) => T): (value: unknown) => T {
  const seen = new Map<string, T>();
  return (value) => {
    if (typeof value !== 'string') return read(value);
    let hit = seen.get(value);
    if (hit === undefined && !seen.has(value)) {
      hit = read(value);
      seen.set(value, hit);
    }
    return hit as T;
  };
}

/**
 * A field's name in a message, or a field of the flat being read: that one is named only when it has a
 * problem (made once, not a name or a closure a field a flat: those were a fifth of the demo's validation).
 */
type Field = string | { flat: string };
const flatFieldOf = (name: string) => ({ flat: name });
const ID = flatFieldOf('id');
const BUILDING = flatFieldOf('building');
const ROOMS = flatFieldOf('rooms');
const AREA = flatFieldOf('area');
const PRICE = flatFieldOf('price');
const BASE_PRICE = flatFieldOf('basePrice');
const FLOOR = flatFieldOf('floor');
const SETTLEMENT = flatFieldOf('settlementDate');
const STATUS = flatFieldOf('status');
const SECTION = flatFieldOf('section');
const NUMBER = flatFieldOf('number');
const FINISH = flatFieldOf('finish');

/**
 * Validates and normalises one raw snapshot object (DESIGN §3.2). Collects every problem, each naming
 * the file, the snapshot's place in it and the field; returns the snapshot or throws them all.
 */
export function validateSnapshot(
  raw: unknown,
  origin: Origin,
  source = 'json',
  flatField: (i: number, field: string) => string = (i, field) => `flats[${i}]${field ? `.${field}` : ''}`,
): Snapshot {
  const errors: string[] = [];
  const prefix = origin.at ? `${origin.file}: ${origin.at}: ` : `${origin.file}: `;
  // the flat being read: its fields' names in messages
  let flatIndex = -1;
  const fail = (field: Field, message: string, value: unknown) => {
    if (errors.length < MAX_ERRORS)
      errors.push(
        `${prefix}${typeof field === 'string' ? field : flatField(flatIndex, field.flat)}: ${message} (${describe(value)})`,
      );
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SnapshotValidationError([`${prefix}снимок должен быть объектом (${describe(raw)})`]);
  }
  const obj = raw as Record<string, unknown>;
  const date = typeof obj.date === 'string' ? obj.date.trim() : undefined;
  const dateProblem = date ? dataDateProblem(date) : 'должно быть датой в формате ГГГГ-ММ-ДД';
  if (dateProblem) fail('date', dateProblem, obj.date);
  /** A name or id: text without control characters, at most `max` characters; undefined when it fails. */
  const text = (field: Field, value: unknown, max: number, required: string | null): string | undefined => {
    if (value === undefined || value === null || value === '') {
      if (required) fail(field, `обязательное поле: ${required}`, value);
      return undefined;
    }
    const t = toText(value);
    if (t === undefined) fail(field, 'должно быть строкой', value);
    // the raw text too: a vertical tab or a byte order mark is refused, not made a space by cleanName
    else if (hasControlCharacters(t) || (typeof value === 'string' && hasControlCharacters(value, true)))
      fail(field, CONTROL_CHARACTERS_MESSAGE, value);
    else if (t.length > max) fail(field, `не длиннее ${max} символов`, value);
    else if (!t && required) fail(field, `обязательное поле: ${required}`, value);
    else return t;
    return undefined;
  };
  let complete = false;
  if (obj.complete !== undefined && obj.complete !== null) {
    if (obj.complete === true || obj.complete === 'true') complete = true;
    else if (obj.complete !== false && obj.complete !== 'false')
      fail('complete', 'должно быть true или false', obj.complete);
  }
  const warnings: string[] = [];
  const place = readPlaceInput(obj.location, (field, message, value) => {
    if (warnings.length < MAX_ERRORS) warnings.push(`${prefix}${field}: ${message} (${describe(value)})`);
  });
  const developer = text('developer', obj.developer, MAX_NAME_LENGTH, 'название застройщика');
  const project = text('project', obj.project, MAX_NAME_LENGTH, 'название проекта');
  const flats: Snapshot['flats'] = [];
  if (!Array.isArray(obj.flats)) {
    fail('flats', 'должно быть массивом квартир', obj.flats);
  } else {
    const seen = new Map<string, number>();
    // buildings, sections and dates repeat across thousands of flats: keep one copy of each
    const pool = new Map<string, string>();
    const shared = (text: string | null | undefined): string | null => {
      if (text === null || text === undefined) return null;
      const hit = pool.get(text);
      if (hit !== undefined) return hit;
      pool.set(text, text);
      return text;
    };
    // a list repeats a few finish and completion texts over all its flats: each is read once
    const finishOf = memoOnText(normaliseFinish);
    const settlementOf = memoOnText(normaliseSettlementDate);
    // and a few buildings and sections: each text that passed is checked (and keyed) once
    const passed = (
      memo: Map<string, string>,
      field: Field,
      value: unknown,
      required: string | null,
      read: (text: string) => string = (t) => t,
    ): string | undefined => {
      if (typeof value === 'string') {
        const hit = memo.get(value);
        if (hit !== undefined) return hit;
      }
      const t = text(field, value, MAX_ID_LENGTH, required);
      const out = t === undefined ? undefined : read(t);
      if (out !== undefined && typeof value === 'string') memo.set(value, out);
      return out;
    };
    const buildings = new Map<string, string>();
    const sections = new Map<string, string>();
    obj.flats.forEach((rawFlat, i) => {
      if (typeof rawFlat !== 'object' || rawFlat === null || Array.isArray(rawFlat)) {
        fail(flatField(i, ''), 'должно быть объектом', rawFlat);
        return;
      }
      const f = rawFlat as Record<string, unknown>;
      const before = errors.length;
      flatIndex = i;
      const id = text(ID, f.id, MAX_ID_LENGTH, 'идентификатор квартиры');
      if (!id) {
        // named above
      } else if (seen.has(id))
        fail(ID, `повторяет идентификатор квартиры ${flatField(seen.get(id)!, '')}`, f.id);
      else seen.set(id, i);
      // one building whatever a source calls it: «Корпус 31», «корп. 31», «31» (DESIGN §10.3)
      const building = passed(buildings, BUILDING, f.building, 'корпус', buildingKey);
      const rooms = toNumber(f.rooms);
      if (rooms === undefined || !Number.isInteger(rooms) || rooms < 0 || rooms > LIMITS.maxRooms)
        fail(ROOMS, 'должно быть целым числом ≥ 0 (0 — студия)', f.rooms);
      const rawArea = toNumber(f.area);
      // kept to 0.01 m²: sums stay exact whatever the order
      const area = rawArea === undefined ? undefined : Math.round(rawArea * 100) / 100;
      if (area === undefined || !(area > 0)) fail(AREA, 'должно быть положительным числом', f.area);
      else if (area < LIMITS.minArea || area > LIMITS.maxArea) fail(AREA, AREA_RULE, f.area);
      const price = toNumber(f.price);
      if (price === undefined || !Number.isInteger(price) || price <= 0)
        fail(PRICE, 'должно быть целым положительным числом рублей', f.price);
      else if (price < LIMITS.minPrice || price > LIMITS.maxPrice) fail(PRICE, PRICE_RULE, f.price);
      else if (area !== undefined && area >= LIMITS.minArea && area <= LIMITS.maxArea) {
        const ppm = price / area;
        if (ppm < LIMITS.minMeterPrice || ppm > LIMITS.maxMeterPrice)
          fail(
            PRICE,
            `цена м² ${fmt(Math.round(ppm))} ₽ вне допустимого диапазона ${PPM_RANGE} (проверьте цену и площадь)`,
            f.price,
          );
      }
      let basePrice: number | null = null;
      if (f.basePrice !== undefined && f.basePrice !== null && f.basePrice !== '') {
        const bp = toNumber(f.basePrice);
        if (bp === undefined || !Number.isInteger(bp) || bp <= 0)
          fail(BASE_PRICE, 'должно быть целым положительным числом рублей', f.basePrice);
        else if (bp < LIMITS.minPrice || bp > LIMITS.maxPrice) fail(BASE_PRICE, PRICE_RULE, f.basePrice);
        else basePrice = bp;
      }
      let floor: number | null = null;
      if (f.floor !== undefined && f.floor !== null && f.floor !== '') {
        const fl = toNumber(f.floor);
        if (fl === undefined || !Number.isInteger(fl) || Math.abs(fl) > LIMITS.maxFloor)
          fail(FLOOR, `должно быть целым числом от −${LIMITS.maxFloor} до ${LIMITS.maxFloor}`, f.floor);
        else floor = fl;
      }
      const settlementDate = settlementOf(f.settlementDate);
      if (settlementDate === undefined)
        fail(
          SETTLEMENT,
          'не распознана дата сдачи (ГГГГ-ММ-ДД, «4 кв. 2026», «Q4 2026», «2026», «Дом сдан»)',
          f.settlementDate,
        );
      else if (
        settlementDate !== null &&
        settlementDate !== SETTLEMENT_DONE &&
        (settlementDate < LIMITS.minSettlement || settlementDate > LIMITS.maxSettlement)
      )
        // 9999-12-31 is also how a delivered building is stored: no real date comes near it
        fail(
          SETTLEMENT,
          `должно быть датой от ${LIMITS.minSettlement} до ${LIMITS.maxSettlement} или «Сдан»`,
          f.settlementDate,
        );
      let status: FlatRecord['status'] = null;
      if (f.status !== undefined && f.status !== null && f.status !== '') {
        const s = typeof f.status === 'string' ? f.status.trim().toUpperCase() : '';
        if (s === 'AVAILABLE' || s === 'RESERVED') status = s;
        else fail(STATUS, 'должно быть AVAILABLE или RESERVED', f.status);
      }
      const section = passed(sections, SECTION, f.section, null);
      const number = text(NUMBER, f.number, MAX_ID_LENGTH, null);
      if (typeof f.finish === 'string' && hasControlCharacters(f.finish, true))
        fail(FINISH, CONTROL_CHARACTERS_MESSAGE, f.finish);
      if (errors.length > before) return;
      const offer = readOffer(f, price!, area!, LIMITS, (field, message, value) => {
        if (warnings.length < MAX_ERRORS)
          warnings.push(`${prefix}${flatField(i, field)}: ${message} (${describe(value)})`);
      });
      flats.push({
        externalId: id!,
        rec: {
          building: shared(building)!,
          section: shared(section || null),
          floor,
          number: number || null,
          rooms: rooms!,
          area: area!,
          facing: finishOf(f.finish),
          settlementDate: shared(settlementDate),
          price: price!,
          basePrice,
          status,
          offer,
        },
      });
    });
  }
  if (errors.length > 0) throw new SnapshotValidationError(errors);
  return {
    date: date!,
    developer: developer!,
    project: project!,
    flats,
    source,
    ...(complete && { complete }),
    ...(place && { place }),
    ...(warnings.length > 0 && { warnings }),
  };
}

/** The snapshot's content hash: as its validating thread computed it, else computed here. */
export const hashOf = (snapshot: Snapshot): string => snapshot.contentHash ?? contentHash(snapshot);

/** Hash of a snapshot's normalised content: equal price lists hash equally whatever the flats' order. */
export function contentHash(snapshot: Snapshot): string {
  // the lines in sorted order: a line starts with its flat's id, ids are unique and hold no control
  // character, so ordering the flats by id orders their lines — without comparing the long lines
  let flats = snapshot.flats;
  let sorted = true;
  for (let i = 1; i < flats.length && sorted; i++)
    if (flats[i - 1].externalId > flats[i].externalId) sorted = false;
  if (!sorted) flats = [...flats].sort((a, b) => (a.externalId < b.externalId ? -1 : 1));
  const lines = flats.map((f) => {
    const r = f.rec;
    // an offer only when there is one: a list without offers hashes as it did before them
    return `${f.externalId}\u0001${r.building}\u0001${r.section ?? ''}\u0001${r.floor ?? ''}\u0001${r.number ?? ''}\u0001${r.rooms}\u0001${r.area}\u0001${r.facing}\u0001${r.settlementDate ?? ''}\u0001${r.price}\u0001${r.basePrice ?? ''}\u0001${r.status ?? ''}${r.offer === null ? '' : `\u0001${r.offer}`}`;
  });
  // a list re-imported as complete is a different import: its partial flag may change
  if (snapshot.complete) lines.push('\u0002complete');
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
