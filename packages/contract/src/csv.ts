/**
 * One CSV cell for Excel (`;`-separated, ru-RU). A text that starts with = + - @ (or a tab or CR, which
 * Excel skips before reading a formula) would run as a formula: it is prefixed with an apostrophe, as
 * OWASP recommends. A number written as a number (−1, −1,5, 1 234) stays a number. Quotes, the separator
 * and line breaks put the cell in quotes.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? String(value) : value;
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(?:[.,]\d+)?$/.test(text)) text = `'${text}`;
  return /[";\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV line of cells joined by `;`. */
export function csvLine(cells: (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(';');
}

/** What a CSV for Excel starts with: the UTF-8 byte order mark, so Excel reads the Cyrillic right. */
export const CSV_BOM = '\uFEFF';
