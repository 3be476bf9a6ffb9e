import { formatPercent, REGISTRY_SHIFT_LABELS } from '@cena-metra/contract';
import { ColumnTable } from '../../../components/column-table';
import { ExportButtons } from '../../../components/export-buttons';
import { DataState } from '../../../components/states';
import { Card } from '../../../components/ui';
import { sheetOf } from '../../../lib/columns';
import { useSeen } from '../../../lib/in-view';
import { useRegistryObjects } from '../api';
import { declaredDate, monthsText, OBJECT_COLUMNS, SALES_COLUMNS } from '../lib/registry';

/**
 * «Реестр» of a project (DESIGN §12.3): its objects in the state registry — declared completion and its
 * shifts, keys, class, flats and the sold share from registered contracts, escrow and problem flags — and the
 * registered sales by month. Asked when the panel comes into view.
 */
export function RegistryPanel({ projectId, projectName }: { projectId: number; projectName: string }) {
  const [ref, seen] = useSeen();
  const q = useRegistryObjects(seen ? projectId : null);
  const objects = q.data?.objects ?? [];
  const shifts = objects.flatMap((o) =>
    o.shifts.map((s) => ({ ...s, objId: o.objId, building: o.building })),
  );
  return (
    <div ref={ref}>
      <Card
        className="mb-6"
        title={
          <span className="flex flex-wrap items-center justify-between gap-3">
            <span>
              Реестр <span className="font-normal text-gray-500 text-sm dark:text-slate-400">наш.дом.рф</span>
            </span>
            <ExportButtons
              fileName={`Реестр ${projectName}`}
              disabled={objects.length === 0}
              sheet={() => sheetOf('Объекты реестра', OBJECT_COLUMNS, objects)}
              testId="registry-export"
            />
          </span>
        }
      >
        <DataState
          loading={!q.data && !q.error}
          error={q.error}
          empty={objects.length === 0}
          emptyText="Нет данных реестра по проекту — привяжите объект."
        >
          {q.data && (
            <div data-testid="registry-panel">
              <p className="mb-3 text-gray-600 text-sm dark:text-slate-300">
                Продано по реестру:{' '}
                <strong>{q.data.soldShare === null ? '—' : formatPercent(q.data.soldShare * 100)}</strong>
                {q.data.lastDay && (
                  <> · данные реестра на {declaredDate({ day: q.data.lastDay, quarter: false })}</>
                )}
              </p>
              <ColumnTable
                columns={OBJECT_COLUMNS}
                rows={objects}
                rowKey={(o) => o.objId}
                testId="registry-objects"
                rowAttributes={(o) => ({ 'data-problem': o.problem ? 'true' : 'false' })}
              />
              {shifts.length > 0 && (
                <div className="mt-4" data-testid="registry-shifts">
                  <h3 className="mb-2 font-semibold">Переносы сроков</h3>
                  <ul className="space-y-1 text-sm">
                    {shifts.map((s) => (
                      <li key={`${s.objId}-${s.field}-${s.day}`}>
                        {declaredDate({ day: s.day, quarter: false })}:{' '}
                        {REGISTRY_SHIFT_LABELS[s.field].toLowerCase()}
                        {s.building ? ` корпуса ${s.building}` : ` объекта ${s.objId}`}{' '}
                        {declaredDate({ day: s.from, quarter: false })} →{' '}
                        {declaredDate({ day: s.to, quarter: false })}{' '}
                        <span
                          className={s.months > 0 ? 'text-red-600 dark:text-red-400' : 'text-emerald-600'}
                        >
                          ({monthsText(s.months)})
                        </span>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {q.data.sales.length > 0 && (
                <div className="mt-4">
                  <h3 className="mb-2 font-semibold">Зарегистрированные продажи по месяцам</h3>
                  <ColumnTable
                    columns={SALES_COLUMNS}
                    rows={q.data.sales}
                    rowKey={(m) => m.month}
                    testId="registry-sales"
                  />
                </div>
              )}
            </div>
          )}
        </DataState>
      </Card>
    </div>
  );
}
