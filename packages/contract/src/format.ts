const wholeRoubles = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Normalises the narrow no-break spaces ru-RU uses to plain no-break spaces, so text reads the same everywhere. */
function spaces(s: string): string {
  return s.replace(/\u202f/g, '\u00a0');
}

/** Whole roubles with space thousands: 14 250 000. */
export function formatRoubles(value: number): string {
  return spaces(wholeRoubles.format(Math.round(value)));
}

/** Two decimals, ru-RU: 371 093,75. */
export function formatDecimal2(value: number): string {
  return spaces(twoDecimals.format(value));
}

/** Discount percent: «3,25 %». */
export function formatPercent(value: number): string {
  return `${formatDecimal2(value)}\u00a0%`;
}

/** Russian plural form for a count: plural(3, ['проект', 'проекта', 'проектов']) → 'проекта'. */
export function plural(count: number, forms: [one: string, few: string, many: string]): string {
  const n = Math.abs(count) % 100;
  const last = n % 10;
  if (n > 10 && n < 20) return forms[2];
  if (last === 1) return forms[0];
  if (last >= 2 && last <= 4) return forms[1];
  return forms[2];
}

/** A count with its noun: «23 проекта», «14 720 снимков». */
export function countOf(count: number, forms: [one: string, few: string, many: string]): string {
  return `${formatRoubles(count)} ${plural(count, forms)}`;
}

export const PROJECTS: [string, string, string] = ['проект', 'проекта', 'проектов'];
export const SNAPSHOTS: [string, string, string] = ['снимок', 'снимка', 'снимков'];
export const FLATS: [string, string, string] = ['квартира', 'квартиры', 'квартир'];
export const DAYS: [string, string, string] = ['день', 'дня', 'дней'];

/** A snapshot seen after a gap without data (DESIGN §10.1): «после перерыва в 906 дней». */
export function afterGapLabel(gapDays: number): string {
  return `после перерыва в ${countOf(gapDays, DAYS)}`;
}

/** A price change: «−5,00 %», «+3,25 %» with a true minus sign; «—» when there is none. */
export function formatChange(percent: number | null): string {
  if (percent === null) return '—';
  const sign = percent < 0 ? '−' : percent > 0 ? '+' : '';
  return `${sign}${formatPercent(Math.abs(percent))}`;
}

const longDate = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A calendar day in words: '2026-11-22' → «22 ноября 2026 г.». */
export function formatLongDate(isoDate: string): string {
  return longDate.format(new Date(`${isoDate}T00:00:00Z`));
}
