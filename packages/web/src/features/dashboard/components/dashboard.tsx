import { CHART_TYPES, type ChartType, type StatsColumns, type StatsRequest } from '@cena-metra/contract';
import { mdiChartTimelineVariant, mdiGrid, mdiRefresh, mdiScaleBalance } from '@mdi/js';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDevelopers, useProjects } from '../../../api/catalog';
import { TimeChart } from '../../../components/chart/time-chart';
import { Switch } from '../../../components/controls';
import { DateRange } from '../../../components/date-input';
import { Icon } from '../../../components/icon';
import { toast } from '../../../components/toast';
import { Button, Select, Skeleton } from '../../../components/ui';
import { SegmentWatchButton } from '../../../components/watch/watch-buttons';
import {
  type DashboardFilters,
  pickDeveloperId,
  pickStats,
  readFilters,
  withAvailableOnly,
  withChartType,
  withDates,
  withDeveloper,
  withIndex,
  withProject,
  withSmooth,
  writeFilters,
} from '../../../lib/dashboard-url';
import { todayLocal } from '../../../lib/dates';
import { useSession } from '../../../lib/session';
import { useHealth, usePrefetchOtherStatus, useProjectIndex, useProjectStats } from '../api';
import { blockRequests } from '../lib/blocks';
import { breakAtGaps, CHART_TYPE_LABELS, CHARTS, chartSeries, noDataBands } from '../lib/series';
import { DistributionBlock } from './distribution-block';
import { OfferPricesBlock } from './offer-prices-block';
import { PaceBlock } from './pace-block';
import { PlacePanel } from './place-panel';
import { QualityPanel } from './quality-panel';
import { RegistryPanel } from './registry-panel';
import { SummaryTable } from './summary-table';

const Y_NAME = 'Цена за м², ₽';

/** The price dashboard of spec §2 and §4; its filters live in the URL. */
export function Dashboard() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const update = (next: DashboardFilters) => setParams(writeFilters(next));

  const developers = useDevelopers();
  const developerId = pickDeveloperId(filters, developers.data);
  const projects = useProjects(developers.data ? developerId : null);
  const { project, from, to, rangeError, statsRequest } = pickStats(filters, projects.data, todayLocal());
  const session = useSession();
  const stats = useProjectStats(statsRequest);
  usePrefetchOtherStatus(statsRequest, !!stats.data && !stats.isPlaceholderData);

  for (const q of [developers, projects, stats]) if (q.error) toastOnce(q.error);

  const fileBase = project ? `${project.name} ${from} — ${to}` : 'cena-metra';

  return (
    <div>
      <div className="mb-6 grid grid-cols-1 gap-6 md:grid-cols-3">
        <Select
          label="Застройщик"
          testId="developer-select"
          value={developerId === null ? '' : String(developerId)}
          disabled={!developers.data}
          options={(developers.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
          onChange={(v) => update(withDeveloper(filters, Number(v)))}
        />
        <Select
          label="Проект"
          testId="project-select"
          value={project ? String(project.id) : ''}
          disabled={!projects.data}
          options={(projects.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          onChange={(v) =>
            update(withProject({ ...filters, developerId: developerId ?? filters.developerId }, Number(v)))
          }
        />
        <Select
          label="Тип графика"
          testId="chart-type-select"
          value={filters.chartType}
          options={CHART_TYPES.map((t) => ({ value: t, label: CHART_TYPE_LABELS[t] }))}
          onChange={(v) => update(withChartType(filters, v as ChartType))}
        />
      </div>
      <div className="mb-6 grid grid-cols-1 items-end gap-6 md:grid-cols-3">
        <DateRange
          from={from}
          to={to}
          ids={{ from: 'from-input', to: 'to-input' }}
          onChange={(range) => update(withDates(filters, range.from, range.to))}
        />
        <div className="flex h-12 flex-wrap items-center gap-x-6">
          <Switch
            checked={filters.smooth}
            data-testid="smooth-switch"
            onChange={(e) => update(withSmooth(filters, e.target.checked))}
          >
            Сглаживание
          </Switch>
          <Switch
            checked={filters.availableOnly}
            data-testid="available-switch"
            title="Без забронированных квартир: цены, количество и сводка"
            onChange={(e) => update(withAvailableOnly(filters, e.target.checked))}
          >
            Только свободные
          </Switch>
          <Switch
            checked={filters.index}
            data-testid="index-switch"
            title="Индекс цен тех же квартир рядом со средней ценой на первом графике: без влияния того, что уже продано"
            onChange={(e) => update(withIndex(filters, e.target.checked))}
          >
            Индекс цен
          </Switch>
        </div>
      </div>
      {rangeError && (
        <p className="mb-6 rounded-lg bg-amber-500 px-4 py-3 text-white" role="alert">
          {rangeError}
        </p>
      )}
      <div className="mb-6 flex items-center justify-between">
        <h2 className="flex items-center gap-2 font-semibold text-xl">
          <Icon path={mdiChartTimelineVariant} size={22} />
          Обзор трендов
        </h2>
        <div className="flex items-center gap-2">
          {project && (
            <Link
              to={`/compare?projects=${project.id}`}
              className="inline-flex items-center gap-1 rounded-full border border-gray-200 px-2 py-1 text-sm hover:bg-gray-100 dark:border-slate-700 dark:hover:bg-slate-800"
              data-testid="compare-link"
            >
              <Icon path={mdiScaleBalance} size={16} />
              Сравнить
            </Link>
          )}
          {project && (
            <Link
              to={`/chess?developer=${developerId}&project=${project.id}`}
              className="inline-flex items-center gap-1 rounded-full border border-gray-200 px-2 py-1 text-sm hover:bg-gray-100 dark:border-slate-700 dark:hover:bg-slate-800"
              data-testid="chess-link"
            >
              <Icon path={mdiGrid} size={16} />
              Шахматка
            </Link>
          )}
          {project && session && (
            <SegmentWatchButton
              projectId={project.id}
              buildings={[
                ...new Set(stats.data?.shortFlatSummaryList.map((r) => r.buildingName) ?? []),
              ].sort()}
            />
          )}
          <Button
            icon={mdiRefresh}
            rounded
            small
            disabled={!statsRequest || stats.isFetching}
            onClick={() => stats.refetch()}
            aria-label="Обновить"
          >
            Обновить
          </Button>
        </div>
      </div>
      <Charts
        key={project?.id ?? 'none'}
        stats={stats.data}
        loading={!stats.data && (stats.isFetching || !project)}
        fetching={stats.isFetching}
        stale={stats.isPlaceholderData}
        filters={filters}
        fileBase={fileBase}
        request={statsRequest}
      />
      {/* after the charts, whose data come first: the report is a second look */}
      {project && <PlacePanel key={`place-${project.id}`} projectId={project.id} />}
      {project && (
        <RegistryPanel key={`registry-${project.id}`} projectId={project.id} projectName={project.name} />
      )}
      {project && <QualityPanel projectId={project.id} />}
    </div>
  );
}

/** Chart credits: the product's Telegram channel (TELEGRAM_CHANNEL_URL), when the server has one. */
function Credits() {
  const health = useHealth();
  const url = health.data?.telegramChannelUrl;
  if (!url) return null;
  return (
    <p className="-mt-3 mb-6 text-right text-gray-500 text-xs dark:text-slate-400">
      Графики: Цена метра ·{' '}
      <a
        href={url}
        target="_blank"
        rel="noreferrer"
        className="text-blue-600 hover:underline dark:text-blue-400"
        data-testid="credits"
      >
        канал в Телеграме
      </a>
    </p>
  );
}

const shown = new WeakSet<Error>();
function toastOnce(error: Error) {
  if (shown.has(error)) return;
  shown.add(error);
  toast(error.message);
}

function Charts({
  stats,
  loading,
  fetching,
  stale,
  filters,
  fileBase,
  request,
}: {
  stats: StatsColumns | undefined;
  loading: boolean;
  fetching: boolean;
  /** the charts show the previous filters' data while the new data load */
  stale: boolean;
  filters: DashboardFilters;
  fileBase: string;
  request: StatsRequest | null;
}) {
  const index = useProjectIndex(
    filters.index && request ? { projectId: request.projectId, from: request.from, to: request.to } : null,
  );
  const series = useMemo(() => {
    if (!stats) return null;
    const all = CHARTS.map((spec) => chartSeries(spec, stats, filters.chartType));
    const points = index.data?.series.find((x) => x.group === 'all')?.points;
    // the same-flat index beside the average of the first chart, on its own axis (§10.6)
    if (filters.index && points)
      all[0] = [
        ...all[0],
        {
          name: 'Индекс тех же квартир',
          kind: 'index',
          color: '#f59e0b',
          axis: 'right',
          data: breakAtGaps(points.map((p) => [p.date, p.index])),
        },
      ];
    return all;
  }, [stats, filters.chartType, filters.index, index.data]);
  // After a change of the filters the pace block, the distribution and the table's pace follow once the
  // charts have their data: asked at once, they would hold up the charts' own request (the server computes
  // them in the same process, PGlite runs one query at a time). On the first load all go together.
  const requestKey = JSON.stringify(request);
  const [settledKey, setSettledKey] = useState(requestKey);
  useEffect(() => {
    if (stats && !fetching) setSettledKey(requestKey);
  }, [stats, fetching, requestKey]);
  const settled = JSON.parse(settledKey) as StatsRequest | null;
  const blocks = settled ? blockRequests(settled, stats) : null;
  // spans without data (§10.1): every chart shades them
  const gaps = useMemo(() => (stats ? noDataBands(stats.dates) : []), [stats]);
  if (loading || !stats || !series)
    return (
      <div data-testid="dashboard-loading">
        <div className="mb-6 grid grid-cols-1 gap-6 md:grid-cols-2 xl:grid-cols-4">
          {CHARTS.map((c) => (
            <Skeleton key={c.id} className={c.group === null ? 'h-[440px]' : 'h-[540px]'} />
          ))}
        </div>
        <Skeleton className="h-64" />
      </div>
    );
  if (stats.dates.length === 0)
    return (
      <div
        className="rounded-2xl bg-white p-10 text-center text-gray-500 dark:bg-slate-900/70 dark:text-slate-400"
        data-testid="dashboard-empty"
      >
        За выбранный период данных нет. Измените даты или выберите другой проект.
      </div>
    );
  return (
    <>
      <div
        className={`mb-6 grid grid-cols-1 gap-6 transition-opacity md:grid-cols-2 xl:grid-cols-4 ${stale ? 'opacity-60' : ''}`}
        data-testid="charts"
        aria-busy={stale}
      >
        {CHARTS.map((spec, i) => (
          <TimeChart
            key={spec.id}
            id={spec.id}
            title={spec.title}
            series={series[i]}
            height={spec.group === null ? 400 : 500}
            fileName={`${fileBase} ${spec.title}`}
            look={
              spec.group === null
                ? { smooth: filters.smooth, alwaysSteps: true, yName: 'Квартир', counts: true, gaps }
                : { smooth: filters.smooth, yName: Y_NAME, gaps }
            }
          />
        ))}
      </div>
      <Credits />
      {blocks && <PaceBlock {...blocks.pace} gaps={gaps} fileBase={fileBase} />}
      {blocks && (
        <OfferPricesBlock
          request={blocks.pace}
          listPrice={series?.[0].find((x) => x.kind === 'avg') ?? null}
          gaps={gaps}
          fileBase={fileBase}
        />
      )}
      {blocks && <DistributionBlock request={blocks.distribution} />}
      <SummaryTable
        summary={stats.shortFlatSummaryList}
        paceRequest={settledKey === requestKey ? (blocks?.paceRows ?? null) : null}
        fileName={`${fileBase} сводка`}
      />
    </>
  );
}
