import {
  EVENT_KIND_LABELS,
  EVENT_KINDS,
  type EventKind,
  formatRoubles,
  type PriceChange,
} from '@cena-metra/contract';
import { mdiDownload, mdiMicrosoftExcel } from '@mdi/js';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDevelopers, useProjects } from '../../api/catalog';
import { saveFile } from '../../components/chart/export';
import { ColumnTable } from '../../components/column-table';
import { parseSortValue, sortValue } from '../../components/data-table';
import { DateRange } from '../../components/date-input';
import { changeColumn, flatColumns } from '../../components/flat-cells';
import { DataState } from '../../components/states';
import { toast } from '../../components/toast';
import { Button, Select } from '../../components/ui';
import { useCanExport } from '../../lib/access';
import { type Column, numberColumn } from '../../lib/columns';
import { todayLocal } from '../../lib/dates';
import { getPriceChangesFile, usePriceChanges } from './api';
import {
  apiQuery,
  nextSort,
  PAGE_SIZE,
  type PriceChangeFilters,
  type PriceChangeSort,
  readPriceChangeFilters,
  writePriceChangeFilters,
} from './lib/filters';

const _money = (v: number | null) => (v === null ? '—' : formatRoubles(v));

/** The columns the server sorts by (the others keep its order). */
type SortedBy = 'date' | 'changePercent' | 'newPrice';
const SORTED: readonly string[] = ['date', 'changePercent', 'newPrice'] satisfies SortedBy[];

/** A page of §4.4's changes: the server filters, sorts, pages and exports them (the exports are streamed). */
const PRICE_CHANGE_COLUMNS: Column<PriceChange>[] = (
  [
    {
      key: 'date',
      label: 'Дата',
      type: 'date',
      value: (r) => r.date,
      className: () => 'whitespace-nowrap',
    },
    {
      key: 'kind',
      label: 'Событие',
      type: 'text',
      value: (r) => EVENT_KIND_LABELS[r.kind],
      cell: (r) => (
        <>
          {EVENT_KIND_LABELS[r.kind]}
          {r.oldArea !== null && (
            <div className="whitespace-nowrap text-gray-500 text-xs dark:text-slate-400">
              {areaChange(r.oldArea, r.area)}
            </div>
          )}
        </>
      ),
    },
    {
      key: 'project',
      label: 'Проект',
      type: 'text',
      value: (r) => r.projectName,
      cell: (r) => (
        <div>
          {r.projectName}
          <div className="text-gray-500 text-xs dark:text-slate-400">{r.developerName}</div>
        </div>
      ),
    },
    ...flatColumns<PriceChange>(),
    numberColumn('oldPrice', 'Было, ₽', 'integer', (r) => r.oldPrice, formatRoubles),
    numberColumn('newPrice', 'Стало, ₽', 'integer', (r) => r.newPrice, formatRoubles),
    changeColumn<PriceChange>('changePercent', 'Изменение', (r) => r.changePercent, {
      afterGap: (r) => (r.afterGap ? r.gapDays : null),
    }),
  ] satisfies Column<PriceChange>[]
).map((c) => ({ ...c, sortable: SORTED.includes(c.key) }));

/** /tables: the price changes of §4.4, filtered, sorted and paged on the server, with a CSV of the filter. */
export function PriceChanges() {
  const [params, setParams] = useSearchParams();
  const f = readPriceChangeFilters(params, todayLocal());
  const update = (next: Partial<PriceChangeFilters>) =>
    setParams(writePriceChangeFilters({ ...f, page: 1, ...next }));
  const developers = useDevelopers();
  const projects = useProjects(f.developerId);
  const query = apiQuery(f);
  const changes = usePriceChanges(query);
  const [downloading, setDownloading] = useState<'csv' | 'xlsx' | null>(null);
  const canExport = useCanExport();
  const pages = Math.max(1, Math.ceil((changes.data?.total ?? 0) / PAGE_SIZE));
  const download = (format: 'csv' | 'xlsx') => async () => {
    setDownloading(format);
    try {
      saveFile(`изменения-цен-${f.from}-${f.to}.${format}`, await getPriceChangesFile(query, format));
    } catch (error) {
      toast((error as Error).message);
    } finally {
      setDownloading(null);
    }
  };
  return (
    <div>
      <div className="mb-6 grid grid-cols-1 gap-4 md:grid-cols-3 xl:grid-cols-5">
        <DateRange from={f.from} to={f.to} ids={{ from: 'pc-from', to: 'pc-to' }} onChange={update} />
        <Select
          label={'Застройщик'}
          value={f.developerId ? String(f.developerId) : ''}
          onChange={(v) => update({ developerId: v ? Number(v) : null, projectId: null })}
          options={[
            { value: '', label: 'Все' },
            ...(developers.data ?? []).map((d) => ({ value: String(d.id), label: d.name })),
          ]}
          testId={'pc-developer'}
        />
        <Select
          label={'Проект'}
          value={f.projectId ? String(f.projectId) : ''}
          onChange={(v) => update({ projectId: v ? Number(v) : null })}
          options={[
            { value: '', label: f.developerId ? 'Все' : 'Сначала застройщик' },
            ...(projects.data ?? []).map((p) => ({ value: String(p.id), label: p.name })),
          ]}
          testId={'pc-project'}
        />
        <Select
          label={'Событие'}
          value={f.kind ?? ''}
          onChange={(v) => update({ kind: (v || null) as EventKind | null })}
          options={[
            { value: '', label: 'Все' },
            ...EVENT_KINDS.map((k) => ({ value: k, label: EVENT_KIND_LABELS[k] })),
          ]}
          testId={'pc-kind'}
        />
      </div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p data-testid="pc-total">
          Найдено: <b>{changes.data?.total.toLocaleString('ru-RU') ?? '…'}</b>
        </p>
        {canExport && (
          <div className="flex gap-2">
            <Button
              icon={mdiDownload}
              small
              onClick={download('csv')}
              disabled={downloading !== null || !changes.data?.total}
            >
              {downloading === 'csv' ? 'Готовлю CSV…' : 'CSV'}
            </Button>
            <Button
              icon={mdiMicrosoftExcel}
              small
              data-testid="pc-xlsx"
              onClick={download('xlsx')}
              disabled={downloading !== null || !changes.data?.total}
            >
              {downloading === 'xlsx' ? 'Готовлю Excel…' : 'Excel'}
            </Button>
          </div>
        )}
      </div>
      <DataState
        loading={changes.isLoading}
        error={changes.error}
        empty={changes.data?.total === 0}
        emptyText="За эти даты и фильтры изменений нет."
      >
        <div className="rounded-2xl bg-white dark:bg-slate-900/70">
          <ColumnTable
            columns={PRICE_CHANGE_COLUMNS}
            rows={changes.data?.rows ?? []}
            rowKey={(r) => `${r.date}-${r.flatId}-${r.kind}`}
            testId="pc-table"
            sort={parseSortValue(f.sort)}
            onSort={(key) => update({ sort: nextSort(f.sort, key as SortedBy) })}
            onSortSelect={(next) =>
              next && update({ sort: sortValue(next.key, next.dir) as PriceChangeSort })
            }
            sortSelectId="pc-sort"
          />
        </div>
        <div className="mt-4 flex items-center justify-between">
          <div className="flex gap-2">
            <Button small disabled={f.page <= 1} onClick={() => update({ page: f.page - 1 })}>
              Назад
            </Button>
            <Button small disabled={f.page >= pages} onClick={() => update({ page: f.page + 1 })}>
              Вперёд
            </Button>
          </div>
          <span className="text-gray-500 text-sm" data-testid="pc-page">
            Страница {f.page} из {pages}
          </span>
        </div>
      </DataState>
    </div>
  );
}

/** An area change as the table says it: «38,4 → 38,41 м²». */
export function areaChange(oldArea: number, area: number): string {
  return `${oldArea.toLocaleString('ru-RU')} → ${area.toLocaleString('ru-RU')} м²`;
}
