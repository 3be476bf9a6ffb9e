import { type AnySheet, excelRows, excelWidths, sheetCsv, sheetName } from '@cena-metra/contract';
import type { SheetData } from 'write-excel-file/universal';
import { saveFile } from '../components/chart/export';

/** A sheet as an Excel file in the browser (the writer loads only when asked). */
export async function xlsxBlob(sheet: AnySheet): Promise<Blob> {
  const { default: writeExcelFile } = await import('write-excel-file/universal');
  return writeExcelFile(excelRows(sheet) as SheetData, {
    sheet: sheetName(sheet.name),
    columns: excelWidths(sheet),
    stickyRowsCount: 1,
  }).toBlob();
}

export async function saveXlsx(fileName: string, sheet: AnySheet): Promise<void> {
  saveFile(`${fileName}.xlsx`, await xlsxBlob(sheet));
}

export function saveCsv(fileName: string, sheet: AnySheet): void {
  saveFile(`${fileName}.csv`, new Blob([sheetCsv(sheet)], { type: 'text/csv;charset=utf-8' }));
}
