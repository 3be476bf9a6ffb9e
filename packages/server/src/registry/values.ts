import type { HOUSING_CLASS_NAMES } from '@cena-metra/contract';
/**
 * The spellings of a value in the registry's answers (DESIGN §12.3): each reader takes every spelling the
 * public clients of наш.дом.рф have met, says `undefined` for a missing value (absent, null, an empty
 * string: the day's answer does not know it) and throws a RegistryValueError naming what it could not read.
 */

export class RegistryValueError extends Error {}

const missing = (v: unknown): v is undefined | null | '' =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A date the registry declares: a day, or a quarter («IV кв. 2028») read as its last day. */
export interface RegistryDate {
  day: string;
  quarter: boolean;
}

const ROMAN: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4 };
const QUARTER_END = ['03-31', '06-30', '09-30', '12-31'];

function validDay(y: number, m: number, d: number): string | undefined {
  if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return undefined;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A date: `YYYY-MM-DD`, `DD.MM.YYYY`, an ISO timestamp (`2026-09-30T00:00:00`, with seconds' fractions or
 * a zone: the day as written, never moved by the zone), or a quarter in Roman or Arabic figures with «кв.»,
 * «кв», «квартал» and an optional «г.»/«года» («IV кв. 2028», «4 квартал 2028 г.»).
 */
export function registryDate(v: unknown, what: string): RegistryDate | undefined {
  if (missing(v)) return undefined;
  if (typeof v !== 'string') throw new RegistryValueError(`${what}: не дата (${JSON.stringify(v)})`);
  const text = v.trim().normalize('NFC');
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(
    text,
  );
  if (m) {
    const day = validDay(Number(m[1]), Number(m[2]), Number(m[3]));
    if (day) return { day, quarter: false };
  }
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$/.exec(text);
  if (m) {
    const day = validDay(Number(m[3]), Number(m[2]), Number(m[1]));
    if (day) return { day, quarter: false };
  }
  m = /^(IV|I{1,3}|[1-4])\s*(?:кв\.?|квартал)\s*(\d{4})\s*(?:г\.?|года)?$/i.exec(text);
  if (m) {
    const q = ROMAN[m[1].toUpperCase()] ?? Number(m[1]);
    return { day: `${m[2]}-${QUARTER_END[q - 1]}`, quarter: true };
  }
  throw new RegistryValueError(`${what}: не дата («${text}»)`);
}

/** A number: a JSON number, or a string of one (spaces and non-breaking spaces between digits, a comma). */
export function registryNumber(v: unknown, what: string): number | undefined {
  if (missing(v)) return undefined;
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v;
    throw new RegistryValueError(`${what}: не число (${v})`);
  }
  if (typeof v === 'string') {
    const text = v
      .trim()
      .replace(/[\s\u00a0\u202f]/g, '')
      .replace(',', '.');
    if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) {
      const n = Number(text);
      if (Number.isFinite(n)) return n;
    }
  }
  throw new RegistryValueError(`${what}: не число (${JSON.stringify(v)})`);
}

/** A whole number ≥ 0 (a count of flats, floors, an id). */
export function registryCount(v: unknown, what: string): number | undefined {
  const n = registryNumber(v, what);
  if (n === undefined) return undefined;
  if (!Number.isSafeInteger(n) || n < 0) throw new RegistryValueError(`${what}: не целое ≥ 0 (${n})`);
  return n;
}

/**
 * A share as 0–1: written as 0–1 or as 0–100 (a value above 1 is in percent; 1 itself is the whole), or a
 * string of either with «%» (then always percent).
 */
export function registryShare(v: unknown, what: string): number | undefined {
  let value = v;
  let percent = false;
  if (typeof value === 'string' && value.trim().endsWith('%')) {
    value = value.trim().slice(0, -1);
    percent = true;
  }
  const n = registryNumber(value, what);
  if (n === undefined) return undefined;
  const share = percent || n > 1 ? n / 100 : n;
  if (share < 0 || share > 1)
    throw new RegistryValueError(`${what}: доля вне 0–100 % (${JSON.stringify(v)})`);
  return Math.round(share * 1e6) / 1e6;
}

const YES = new Set(['1', 'true', 'да', 'yes', 'y', 'д']);
const NO = new Set(['0', 'false', 'нет', 'no', 'n', 'н']);

/** A flag: a boolean, 0/1 (numbers or strings), «да»/«нет», true/false in any case. */
export function registryFlag(v: unknown, what: string): boolean | undefined {
  if (missing(v)) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 0 || v === 1) return v === 1;
  if (typeof v === 'string') {
    const text = v.trim().toLowerCase();
    if (YES.has(text)) return true;
    if (NO.has(text)) return false;
  }
  throw new RegistryValueError(`${what}: не да/нет (${JSON.stringify(v)})`);
}

/** A text, trimmed; numbers are taken as their text (a registry number may come as either). */
export function registryText(v: unknown, what: string): string | undefined {
  if (missing(v)) return undefined;
  if (typeof v === 'string') return v.trim().normalize('NFC');
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new RegistryValueError(`${what}: не текст (${JSON.stringify(v)})`);
}

/** The classes of housing as the product names them (DESIGN §12.3). */
export type HousingClass = (typeof HOUSING_CLASS_NAMES)[number];

/**
 * `objLkClassDesc` normalised: case, ё, «класс», «+» and the usual words («стандарт» is Эконом, «элитный»,
 * «де-люкс» Элит). Undefined for a class the registry names otherwise (the raw text is kept).
 */
export function normaliseClass(raw: string | undefined): HousingClass | undefined {
  if (!raw) return undefined;
  const t = raw
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/класс|\+|плюс/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (/^(эконом|стандарт|типовой|массовый)/.test(t)) return 'Эконом';
  if (/^комфорт/.test(t)) return 'Комфорт';
  if (/^бизнес/.test(t)) return 'Бизнес';
  if (/^премиум/.test(t)) return 'Премиум';
  if (/^(элит|де[ -]?люкс|de ?luxe|deluxe)/.test(t)) return 'Элит';
  return undefined;
}
