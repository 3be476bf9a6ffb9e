import {
  formatPercent,
  REGISTRY_MATCH_LABELS,
  REGISTRY_SHIFT_LABELS,
  type RegistryObject,
} from '@cena-metra/contract';
import { type FormEvent, useState } from 'react';
import { ColumnTable } from '../../../components/column-table';
import { ExportButtons } from '../../../components/export-buttons';
import { DataState } from '../../../components/states';
import { toast } from '../../../components/toast';
import { Button, Card } from '../../../components/ui';
import { useMay } from '../../../lib/access';
import { actionsColumn, sheetOf } from '../../../lib/columns';
import { useSeen } from '../../../lib/in-view';
import { useRegistryLink, useRegistryObjects } from '../api';
import { declaredDate, monthsText, OBJECT_COLUMNS, SALES_COLUMNS } from '../lib/registry';
import { ClassLine } from './class-line';
import { RegistryCandidates } from './registry-candidates';

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
  // a hand link or unlink is a setting: admins' (DESIGN §11.5)
  const mayLink = useMay('admin');
  const { link, back } = useRegistryLink();
  const failed = (e: Error) => toast(e.message, 'error');
  const linkHere = (objId: number) =>
    link.mutate(
      { objId, projectId },
      { onSuccess: () => toast(`Объект ${objId} привязан к проекту`, 'success'), onError: failed },
    );
  const columns = mayLink
    ? [
        ...OBJECT_COLUMNS,
        actionsColumn<RegistryObject>((o) => (
          <span className="flex items-center gap-2">
            <span className="text-gray-500 text-xs">{REGISTRY_MATCH_LABELS[o.match]}</span>
            {o.match === 'hand' ? (
              <Button
                small
                onClick={() => back.mutate(o.objId, { onError: failed })}
                data-testid="registry-back"
              >
                По правилу
              </Button>
            ) : (
              <Button
                small
                onClick={() => link.mutate({ objId: o.objId, projectId: null }, { onError: failed })}
                data-testid="registry-unlink"
              >
                Отвязать
              </Button>
            )}
          </span>
        )),
      ]
    : OBJECT_COLUMNS;
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
        <ClassLine projectId={seen ? projectId : null} />
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
                columns={columns}
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
        {mayLink && q.data && (
          <>
            <LinkForm onLink={linkHere} />
            <RegistryCandidates projectId={projectId} onLink={linkHere} />
          </>
        )}
      </Card>
    </div>
  );
}

/** Admins: an object of the registry linked to this project by its number (наш.дом.рф's objId). */
function LinkForm({ onLink }: { onLink: (objId: number) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const objId = Number(text.trim());
    if (!/^\d+$/.test(text.trim()) || objId <= 0 || objId > 2_147_483_647)
      return setError('Номер объекта в реестре — целое положительное число');
    setError(null);
    onLink(objId);
    setText('');
  };
  return (
    <form className="mt-4 flex flex-wrap items-end gap-3" onSubmit={submit} data-testid="registry-link-form">
      <label className="block">
        <span className="mb-1 block font-semibold text-sm">Привязать объект реестра №</span>
        <input
          className="h-10 rounded-lg border border-gray-300 px-3 dark:border-slate-600 dark:bg-slate-800"
          inputMode="numeric"
          name="objId"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={error !== null}
        />
      </label>
      <Button type="submit">Привязать</Button>
      {error && (
        <p role="alert" className="w-full text-red-600 text-sm">
          {error}
        </p>
      )}
    </form>
  );
}
