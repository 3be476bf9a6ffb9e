import { CSV_BOM, csvLine } from './csv.js';

/**
 * A table as it is exported: one list of columns gives both the CSV and the Excel file, so the two never
 * disagree. Types say how a cell is written: numbers stay numbers (whole, or with two decimals), dates
 * are dates, everything else text.
 */
export type SheetCellType = 'text' | 'integer' | 'decimal' | 'date';

export interface SheetColumn<R> {
  header: string;
  type: SheetCellType;
  /** the cell's value: a number for numbers, `YYYY-MM-DD` for dates, text; null when empty */
  value: (row: R) => string | number | null;
  /** width in characters (Excel) */
  width?: number;
}

export interface Sheet<R = unknown> {
  /** the sheet's name in the Excel file (at most 31 characters) */
  name: string;
  columns: SheetColumn<R>[];
  rows: R[];
}

/** Columns of a kind: text, whole numbers, numbers with two decimals. */
export const textColumn = <R>(header: string, value: (r: R) => string | null): SheetColumn<R> => ({
  header,
  type: 'text',
  value,
});
export const integerColumn = <R>(header: string, value: (r: R) => number | null): SheetColumn<R> => ({
  header,
  type: 'integer',
  value,
});
export const decimalColumn = <R>(header: string, value: (r: R) => number | null): SheetColumn<R> => ({
  header,
  type: 'decimal',
  value,
});

/** A typed sheet of any row type (what the exporters take). */
// biome-ignore lint/suspicious/noExplicitAny: a sheet's columns read its own rows; exporters only pass them through
export type AnySheet = Sheet<any>;

/** A cell's CSV text: two decimals with a comma, whole numbers as they are, dates ISO, text defused. */
export function csvValue(type: SheetCellType, value: string | number | null): string | number | null {
  if (value === null) return null;
  if (type === 'decimal' && typeof value === 'number') return value.toFixed(2).replace('.', ',');
  return value;
}

/** CSV for Excel (UTF-8 BOM, `;`, CRLF) of a sheet. */
export function sheetCsv(sheet: AnySheet): string {
  const lines = [csvLine(sheet.columns.map((c) => c.header))];
  for (const row of sheet.rows) lines.push(sheetCsvLine(sheet.columns, row));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}

/** One row as a CSV line. */
export function sheetCsvLine<R>(columns: SheetColumn<R>[], row: R): string {
  return csvLine(columns.map((c) => csvValue(c.type, c.value(row))));
}

/** A cell as `write-excel-file` takes it: a value with its display format, or null when empty. */
export type ExcelCell = {
  value: string | number | Date;
  format?: string;
  fontWeight?: 'bold';
  wrap?: boolean;
} | null;

const FORMATS: Record<SheetCellType, string | undefined> = {
  text: undefined,
  integer: '#,##0',
  decimal: '#,##0.00',
  date: 'dd.mm.yyyy',
};

/** The rows of the Excel sheet: a bold header, then typed cells (dates at UTC midnight, formatted). */
export function excelRows(sheet: AnySheet): ExcelCell[][] {
  const header: ExcelCell[] = sheet.columns.map((c) => ({ value: c.header, fontWeight: 'bold', wrap: true }));
  const rows = sheet.rows.map((row) =>
    sheet.columns.map((c): ExcelCell => {
      const v = c.value(row);
      if (v === null || v === '') return null;
      if (c.type === 'date' && typeof v === 'string') {
        const [y, m, d] = v.split('-').map(Number);
        return { value: new Date(Date.UTC(y, m - 1, d)), format: FORMATS.date };
      }
      if (typeof v === 'number') return { value: v, format: FORMATS[c.type] };
      return { value: v };
    }),
  );
  return [header, ...rows];
}

/** Column widths: the given one, else the longer of the header and the longest value, within 8…40. */
export function excelWidths(sheet: AnySheet): { width: number }[] {
  return sheet.columns.map((c) => {
    if (c.width) return { width: c.width };
    let longest = Math.min(c.header.length, 24);
    for (const row of sheet.rows.slice(0, 500)) {
      const v = c.value(row);
      if (v !== null) longest = Math.max(longest, String(v).length + (c.type === 'text' ? 0 : 2));
    }
    return { width: Math.max(8, Math.min(40, longest + 2)) };
  });
}

/** A file name's Excel sheet name: at most 31 characters, none of : \ / ? * [ ]. */
export function sheetName(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31);
}
