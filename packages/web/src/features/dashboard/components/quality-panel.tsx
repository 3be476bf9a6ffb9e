import type { ProjectQuality } from '@cena-metra/contract';
import { mdiAlertCircle, mdiCheckCircle } from '@mdi/js';
import { useState } from 'react';
import { ColumnTable } from '../../../components/column-table';
import { Icon } from '../../../components/icon';
import { DataState } from '../../../components/states';
import { Button, Card } from '../../../components/ui';
import type { Column } from '../../../lib/columns';
import { useSeen } from '../../../lib/in-view';
import { useProjectQuality } from '../api';
import { qualityLines } from '../lib/quality';

/** «Качество данных»: why a number of this project may look odd (gaps, partial scans, outliers…). */
export function QualityPanel({ projectId }: { projectId: number | null }) {
  // asked when the panel comes into view (DESIGN §12.2)
  const [ref, seen] = useSeen();
  const q = useProjectQuality(seen ? projectId : null);
  return (
    <div ref={ref}>
      <Card className="mb-6" title="Качество данных">
        <DataState loading={!q.data && !q.error} error={q.error}>
          {q.data && (
            <dl className="grid grid-cols-1 gap-x-6 gap-y-2 md:grid-cols-2" data-testid="quality-panel">
              {qualityLines(q.data).map((line) => (
                <div
                  key={line.label}
                  className="flex items-start gap-2"
                  data-warn={line.warn ? 'true' : 'false'}
                >
                  <Icon
                    path={line.warn ? mdiAlertCircle : mdiCheckCircle}
                    className={line.warn ? 'mt-0.5 text-amber-500' : 'mt-0.5 text-emerald-500'}
                    size={18}
                  />
                  <div>
                    <dt className="text-gray-500 text-sm dark:text-slate-400">{line.label}</dt>
                    <dd>{line.value}</dd>
                  </div>
                </div>
              ))}
            </dl>
          )}
          {q.data && q.data.snapshotList.length > 0 && <SnapshotList snapshots={q.data.snapshotList} />}
        </DataState>
      </Card>
    </div>
  );
}

type SnapshotRow = ProjectQuality['snapshotList'][number];

const SNAPSHOT_COLUMNS: Column<SnapshotRow>[] = [
  { key: 'date', label: 'Дата', type: 'date', value: (s) => s.date },
  { key: 'flats', label: 'Квартир', type: 'integer', value: (s) => s.flats },
  {
    key: 'list',
    label: 'Список',
    type: 'text',
    value: (s) =>
      s.partial
        ? 'неполный: пропавшие квартиры не сняты'
        : s.complete
          ? 'полный (отмечен при импорте)'
          : 'полный',
    cell: (s) =>
      s.partial ? (
        <span className="text-amber-700 dark:text-amber-400">неполный: пропавшие квартиры не сняты</span>
      ) : s.complete ? (
        'полный (отмечен при импорте)'
      ) : (
        'полный'
      ),
  },
];

/** Snapshots shown before «Показать все». */
const SHOWN = 30;

/** The project's snapshots, newest first, a partial one flagged (DESIGN §10.4). */
function SnapshotList({ snapshots }: { snapshots: ProjectQuality['snapshotList'] }) {
  const [all, setAll] = useState(false);
  const rows = all ? snapshots : snapshots.slice(0, SHOWN);
  return (
    <details className="mt-4" data-testid="snapshot-list">
      <summary className="cursor-pointer text-blue-600 text-sm dark:text-blue-400">
        Снимки ({snapshots.length.toLocaleString('ru-RU')})
      </summary>
      <div className="mt-2 max-h-96 overflow-auto">
        <ColumnTable
          columns={SNAPSHOT_COLUMNS}
          rows={rows}
          rowKey={(s) => s.date}
          rowAttributes={(s) => ({ 'data-partial': s.partial ? 'true' : 'false' })}
          testId="snapshot-table"
        />
      </div>
      {!all && snapshots.length > SHOWN && (
        <Button small className="mt-2" onClick={() => setAll(true)}>
          Показать все
        </Button>
      )}
    </details>
  );
}
