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
