import { type Facing, SETTLEMENT_DONE } from '@cena-metra/contract';

/**
 * Finish text → facing code (DESIGN §3.2). Codes pass through; Russian and English descriptions map by
 * their meaning; anything else or missing is UNKNOWN.
 */
export function normaliseFinish(value: unknown): Facing {
  if (typeof value !== 'string') return 'UNKNOWN';
  const text = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  if (!text) return 'UNKNOWN';
  const codes: Record<string, Facing> = {
    black: 'BLACK',
    white: 'WHITE',
    'fine finishing': 'FINE_FINISHING',
    furniture: 'FURNITURE',
    unknown: 'UNKNOWN',
  };
  if (codes[text]) return codes[text];
  if (text.includes('мебел')) return 'FURNITURE';
  if (text.includes('без отделки') || text === 'черновая') return 'BLACK';
  if (text.includes('white') || text.includes('предчистов') || text.includes('подчистов')) return 'WHITE';
  if (text.includes('чистов') || text.includes('отделк')) return 'FINE_FINISHING';
  return 'UNKNOWN';
}

const MONTHS: Record<string, number> = {
  января: 1,
  февраля: 2,
  марта: 3,
  апреля: 4,
  мая: 5,
  июня: 6,
  июля: 7,
  августа: 8,
  сентября: 9,
  октября: 10,
  ноября: 11,
  декабря: 12,
};

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function validDate(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

function quarterEnd(quarter: number, year: number): string | null {
  if (quarter < 1 || quarter > 4) return null;
  const month = quarter * 3;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return validDate(year, month, last);
}

/**
 * Settlement date text → YYYY-MM-DD (DESIGN §3.2): a date is kept; «N кв. YYYY» / «QN YYYY» is the last day
 * of that quarter; «YYYY» is 31 December; «до 30 августа 2023» is that date. Returns undefined when the
 * text is none of these, null when it is empty.
 */
const settlementCache = new Map<string, string | null | undefined>();

export function normaliseSettlementDate(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    // price lists repeat a handful of settlement texts thousands of times
    if (settlementCache.has(value)) return settlementCache.get(value);
    const parsed = parseSettlementDate(value);
    if (settlementCache.size > 10_000) settlementCache.clear();
    settlementCache.set(value, parsed);
    return parsed;
  }
  return parseSettlementDate(value);
}

function parseSettlementDate(value: unknown): string | null | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return validDate(value, 12, 31) ?? undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (!text) return null;
  // a delivered building (§10.3): «Сдан», «Дом сдан», «Готовая квартира», «Ключи выданы», DONE
  if (/^(?:дом\s+)?сдан|^готов|^ключи|^done$/.test(text)) return SETTLEMENT_DONE;
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3])) ?? undefined;
  m = /^([1-4])\s*(?:кв\.?|квартал)\s*(\d{4})(?:\s*г\.?)?$/.exec(text);
  if (m) return quarterEnd(Number(m[1]), Number(m[2])) ?? undefined;
  m = /^q([1-4])\s*(\d{4})$/.exec(text);
  if (m) return quarterEnd(Number(m[1]), Number(m[2])) ?? undefined;
  m = /^(\d{4})(?:\s*г\.?)?$/.exec(text);
  if (m) return validDate(Number(m[1]), 12, 31) ?? undefined;
  m = /(?:^|\s)до\s+(\d{1,2})\s+([а-яё]+)\s+(\d{4})/.exec(text);
  if (m && MONTHS[m[2]]) return validDate(Number(m[3]), MONTHS[m[2]], Number(m[1])) ?? undefined;
  m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  if (m) return validDate(Number(m[3]), Number(m[2]), Number(m[1])) ?? undefined;
  return undefined;
}

/** Collapses inner whitespace and trims: names are matched trimmed and case-insensitively. */
export function cleanName(value: string): string {
  if (!/\s\s|^\s|\s$|[\t\n\r\u00a0]/.test(value)) return value;
  return value.replace(/\s+/g, ' ').trim();
}
