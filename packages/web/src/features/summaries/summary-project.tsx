import { afterGapLabel, formatRoubles, type SummaryProject } from '@cena-metra/contract';
import { Link } from 'react-router';
import { ColumnTable } from '../../components/column-table';
import { changeColumn, flatColumns } from '../../components/flat-cells';
import { DataState } from '../../components/states';
import { Card } from '../../components/ui';
import { type Column, numberColumn } from '../../lib/columns';
import { useSummaryProject } from './api';
import { groupEvents } from './lib/events';

const _money = (v: number | null) => (v === null ? '—' : formatRoubles(v));

type Event = SummaryProject['events'][number];
const _area = (v: number | null) => v?.toLocaleString('ru-RU') ?? '—';

/** An area's change: the flat, its area before and after, its price. */
const AREA_EVENT_COLUMNS: Column<Event>[] = [
  ...flatColumns<Event>(true),
  numberColumn(
    'oldArea',
    'Было, м²',
    'decimal',
    (e) => e.oldArea,
    (x) => x.toLocaleString('ru-RU'),
  ),
  numberColumn(
    'newArea',
    'Стало, м²',
    'decimal',
    (e) => e.area,
    (x) => x.toLocaleString('ru-RU'),
  ),
  numberColumn('price', 'Цена, ₽', 'integer', (e) => e.newPrice, formatRoubles),
];

/** Any other event: the flat, its price before and after, the change. */
const PRICE_EVENT_COLUMNS: Column<Event>[] = [
  ...flatColumns<Event>(true),
  numberColumn('oldPrice', 'Было, ₽', 'integer', (e) => e.oldPrice, formatRoubles),
  numberColumn('newPrice', 'Стало, ₽', 'integer', (e) => e.newPrice, formatRoubles),
  changeColumn<Event>('change', 'Изменение', (e) => e.changePercent, {
    afterGap: (e) => (e.afterGap ? e.gapDays : null),
  }),
];

/** One project's events on one day, grouped by kind, each flat linking to its summary. */
export function SummaryProjectView({ summaryId, projectId }: { summaryId: number; projectId: number }) {
  const q = useSummaryProject(summaryId, projectId);
  const data = q.data;
  return (
    <DataState loading={q.isLoading} error={q.error}>
      {data && (
        <>
          <p className="mb-6 text-gray-600 dark:text-slate-300" data-testid="summary-project-head">
            {data.project.developerName} · <b>{data.project.projectName}</b> ·{' '}
            {new Date(`${data.summary.date}T00:00:00`).toLocaleDateString('ru-RU', {
              day: 'numeric',
              month: 'long',
              year: 'numeric',
            })}{' '}
            · квартир в продаже: {data.project.flatsCount} ·{' '}
            <Link to="/summary" className="text-blue-600 dark:text-blue-400">
              все сводки
            </Link>
          </p>
          {data.project.afterGap && data.project.gapDays !== null && (
            <p
              role="note"
              data-testid="gap-notice"
              className="mb-6 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-900 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-200"
            >
              Снимок {afterGapLabel(data.project.gapDays)} без данных: изменения цен накопились за это время,
              а квартиры, которых нет в списке, сняты сразу.
            </p>
          )}
          {data.project.partial && (
            <p
              role="note"
              data-testid="partial-notice"
              className="mb-6 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-900 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-200"
            >
              Неполный список: в нём меньше половины обычного числа квартир. Квартиры, которых в нём нет,
              считаются в продаже с прежней ценой, и снятыми в этот день они не считаются.
            </p>
          )}
          {groupEvents(data.events).map((group) => (
            <Card key={group.kind} className="mb-6" title={`${group.label}: ${group.events.length}`}>
              <ColumnTable
                columns={group.kind === 'AREA_CHANGED' ? AREA_EVENT_COLUMNS : PRICE_EVENT_COLUMNS}
                rows={group.events}
                rowKey={(e) => e.flatId}
                testId={`events-${group.kind}`}
              />
            </Card>
          ))}
          {data.events.length === 0 && (
            <p
              data-testid="empty-state"
              className="rounded-2xl bg-white p-10 text-center text-gray-500 dark:bg-slate-900/70"
            >
              В этот день у проекта не было изменений.
            </p>
          )}
        </>
      )}
    </DataState>
  );
}
