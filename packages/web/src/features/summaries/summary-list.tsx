import { formatLongDate, formatRoubles, type Summary, type SummaryListItem } from '@cena-metra/contract';
import { mdiChevronDown, mdiChevronRight } from '@mdi/js';
import { useState } from 'react';
import { Link } from 'react-router';
import { ColumnTable } from '../../components/column-table';
import { changeColumn } from '../../components/flat-cells';
import { Icon } from '../../components/icon';
import { DataState } from '../../components/states';
import { Button } from '../../components/ui';
import type { Column } from '../../lib/columns';
import { useSummaries, useSummary } from './api';
import { promoText } from './lib/events';

/** A partial list (DESIGN §10.4): flats it left out kept their record, so nothing was removed that day. */
export function PartialBadge() {
  return (
    <span
      className="ml-2 whitespace-nowrap rounded-full border border-amber-500 px-2 text-amber-700 text-xs dark:text-amber-400"
      title="В прайс-листе меньше половины обычного числа квартир: пропавшие квартиры считаются в продаже с прежней ценой, снятия в этот день не засчитаны"
      data-testid="partial-badge"
    >
      неполный список
    </span>
  );
}

type SummaryProjectRow = Summary['projects'][number];
const count = (
  key: string,
  label: string,
  value: (p: SummaryProjectRow) => number,
): Column<SummaryProjectRow> => ({
  key,
  label,
  type: 'integer',
  value,
  text: (p) => String(value(p)),
});

/** A day's summary: a row per project with the counts of its events. */
const summaryProjectColumns = (id: number): Column<SummaryProjectRow>[] => [
  { key: 'developer', label: 'Застройщик', type: 'text', value: (p) => p.developerName },
  {
    key: 'project',
    label: 'Проект',
    type: 'text',
    value: (p) => p.projectName,
    cell: (p) => (
      <>
        <Link
          className="text-blue-600 hover:underline dark:text-blue-400"
          to={`/summary/${id}/project/${p.projectId}`}
        >
          {p.projectName}
        </Link>
        {p.isNewProject && (
          <span className="ml-2 rounded-full border border-blue-400 px-2 text-blue-600 text-xs">новый</span>
        )}
        {p.partial && <PartialBadge />}
      </>
    ),
  },
  count('new', 'Новые', (p) => p.newFlats),
  count('removed', 'Сняты', (p) => p.removedFlats),
  count('up', 'Дороже', (p) => p.priceUp),
  count('down', 'Дешевле', (p) => p.priceDown),
  count('area', 'Площадь', (p) => p.areaChanged),
  {
    key: 'promo',
    label: 'Акции',
    type: 'text',
    numeric: true,
    value: (p) => promoText(p.promoStarted, p.promoEnded),
    cell: (p) => (
      <span title="акция или зачёркнутая цена: появилась / снята">
        {promoText(p.promoStarted, p.promoEnded)}
      </span>
    ),
  },
  changeColumn<SummaryProjectRow>('change', 'Сред. изменение', (p) => p.avgChangePercent),
  {
    key: 'meterPrice',
    label: 'Сред. цена м², ₽',
    type: 'decimal',
    value: (p) => p.avgMeterPrice,
    text: (p) => (p.avgMeterPrice === null ? '—' : formatRoubles(p.avgMeterPrice)),
  },
];

function SummaryProjects({ id }: { id: number }) {
  const summary = useSummary(id);
  return (
    <DataState loading={summary.isLoading} error={summary.error} empty={summary.data?.projects.length === 0}>
      <ColumnTable
        columns={summaryProjectColumns(id)}
        rows={summary.data?.projects ?? []}
        rowKey={(p) => p.projectId}
        testId={`summary-${id}-projects`}
      />
    </DataState>
  );
}

function SummaryRow({ item, initiallyOpen }: { item: SummaryListItem; initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const date = new Date(`${item.date}T00:00:00`).toLocaleDateString('ru-RU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  return (
    <div className="mb-4 rounded-2xl bg-white dark:bg-slate-900/70" data-testid="summary-item">
      <button
        type="button"
        className="flex w-full flex-wrap items-center gap-x-6 gap-y-1 p-4 text-left"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon path={open ? mdiChevronDown : mdiChevronRight} />
        <span className="font-semibold">{date}</span>
        <span className="text-gray-500 text-sm dark:text-slate-400">
          проектов: {item.projects} · новых: {item.newFlats} · снято: {item.removedFlats} · дороже:{' '}
          {item.priceUp} · дешевле: {item.priceDown}
          {item.areaChanged > 0 && ` · площадь: ${item.areaChanged}`}
          {item.promoStarted + item.promoEnded > 0 &&
            ` · акции: ${promoText(item.promoStarted, item.promoEnded)}`}
        </span>
        {item.partial && <PartialBadge />}
      </button>
      {open && (
        <div className="px-4 pb-4">
          <SummaryProjects id={item.id} />
        </div>
      )}
    </div>
  );
}

/** Daily summaries newest first (the newest expanded), with «Показать ещё». */
export function SummaryList() {
  const summaries = useSummaries();
  const items = summaries.data?.pages.flat() ?? [];
  return (
    <DataState
      loading={summaries.isLoading}
      error={summaries.error}
      empty={items.length === 0}
      emptyText="Сводок пока нет: они появятся после первого импорта."
    >
      {items.map((item, i) => (
        <SummaryRow key={item.id} item={item} initiallyOpen={i === 0} />
      ))}
      {summaries.hasNextPage && (
        <Button onClick={() => summaries.fetchNextPage()} disabled={summaries.isFetchingNextPage}>
          {summaries.isFetchingNextPage ? 'Загрузка…' : 'Показать ещё'}
        </Button>
      )}
    </DataState>
  );
}

/** One day's summary (/summary/:id, where the Telegram digest's button leads): totals and the projects. */
export function SummaryDay({ id }: { id: number }) {
  const summary = useSummary(id);
  const projects = summary.data?.projects ?? [];
  const total = (key: 'newFlats' | 'removedFlats' | 'priceUp' | 'priceDown') =>
    projects.reduce((s, p) => s + p[key], 0);
  return (
    <DataState loading={summary.isLoading} error={summary.error}>
      {summary.data && (
        <>
          <p className="mb-6 text-gray-600 dark:text-slate-300" data-testid="summary-day">
            <span className="font-semibold">{formatLongDate(summary.data.date)}</span> · проектов:{' '}
            {projects.length} · новых: {total('newFlats')} · снято: {total('removedFlats')} · дороже:{' '}
            {total('priceUp')} · дешевле: {total('priceDown')} ·{' '}
            <Link className="text-blue-600 hover:underline dark:text-blue-400" to="/summary">
              все сводки
            </Link>
          </p>
          <div className="rounded-2xl bg-white p-4 dark:bg-slate-900/70">
            <SummaryProjects id={id} />
          </div>
        </>
      )}
    </DataState>
  );
}
