import type { AnySheet } from '@cena-metra/contract';
import { mdiDownload, mdiMicrosoftExcel } from '@mdi/js';
import { useState } from 'react';
import { useCanExport } from '../lib/access';
import { saveCsv, saveXlsx } from '../lib/xlsx';
import { toast } from './toast';
import { Button } from './ui';

/** «CSV» and «Excel» beside a table: both from the same sheet (its columns and rows as shown). */
export function ExportButtons({
  fileName,
  sheet,
  disabled,
  testId,
}: {
  fileName: string;
  sheet: () => AnySheet;
  disabled?: boolean;
  testId: string;
}) {
  const [busy, setBusy] = useState(false);
  // viewers get no downloads when the server keeps them from viewers (VIEWERS_EXPORT=false)
  const canExport = useCanExport();
  const excel = async () => {
    setBusy(true);
    try {
      await saveXlsx(fileName, sheet());
    } catch (error) {
      toast(`Не удалось выгрузить Excel: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  if (!canExport) return null;
  return (
    <div className="flex gap-2">
      <Button
        small
        icon={mdiDownload}
        disabled={disabled}
        data-testid={`${testId}-csv`}
        onClick={() => saveCsv(fileName, sheet())}
      >
        CSV
      </Button>
      <Button
        small
        icon={mdiMicrosoftExcel}
        disabled={disabled || busy}
        data-testid={`${testId}-xlsx`}
        onClick={excel}
      >
        {busy ? 'Готовлю…' : 'Excel'}
      </Button>
    </div>
  );
}
