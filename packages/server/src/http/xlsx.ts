import { type AnySheet, excelRows, excelWidths, sheetName } from '@cena-metra/contract';
import type { SheetData } from 'write-excel-file/node';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A sheet as an Excel file: typed cells, the header row frozen, columns as wide as their values. */
export async function xlsxBuffer(sheet: AnySheet): Promise<Buffer> {
  // loaded by the first export (its 78 modules were ~75 ms of every server's start: docs/performance.md)
  const { default: writeExcelFile } = await import('write-excel-file/node');
  const out = await writeExcelFile(excelRows(sheet) as SheetData, {
    sheet: sheetName(sheet.name),
    columns: excelWidths(sheet),
    stickyRowsCount: 1,
  }).toBuffer();
  return out as Buffer;
}
