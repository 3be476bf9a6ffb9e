import { CHART_TYPES, type ChartType, isIsoDate } from '@cena-metra/contract';

/** Dashboard filters as they live in the URL (shareable); absent values take the spec's defaults. */
export interface DashboardFilters {
  developerId: number;
  projectId: number | null;
  chartType: ChartType;
  from: string | null;
  to: string | null;
  smooth: boolean;
  /** «только свободные» (DESIGN §10.2): reserved lots left out of every figure */
  availableOnly: boolean;
  /** the same-flat index (DESIGN §10.6) beside the average on the first chart */
  index: boolean;
}

export const DEFAULT_DEVELOPER_ID = 5;
export const DEFAULT_FROM = '2025-04-20';

function positiveInt(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n > 0 ? n : null;
}

export function readFilters(params: URLSearchParams): DashboardFilters {
  const type = params.get('type');
  const from = params.get('from');
  const to = params.get('to');
  return {
    developerId: positiveInt(params.get('developer')) ?? DEFAULT_DEVELOPER_ID,
    projectId: positiveInt(params.get('project')),
    chartType: (CHART_TYPES as readonly string[]).includes(type ?? '') ? (type as ChartType) : 'NONE',
    from: from && isIsoDate(from) ? from : null,
    to: to && isIsoDate(to) ? to : null,
    smooth: params.get('smooth') !== '0',
    availableOnly: params.get('status') === 'available',
    index: params.get('index') === '1',
  };
}

/** The URL query of filters: defaults are left out so that a plain / stays plain. */
export function writeFilters(f: DashboardFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.developerId !== DEFAULT_DEVELOPER_ID) params.set('developer', String(f.developerId));
  if (f.projectId !== null) params.set('project', String(f.projectId));
  if (f.chartType !== 'NONE') params.set('type', f.chartType);
  if (f.from) params.set('from', f.from);
  if (f.to) params.set('to', f.to);
  if (!f.smooth) params.set('smooth', '0');
  if (f.availableOnly) params.set('status', 'available');
  if (f.index) params.set('index', '1');
  return params;
}

/** The dashboard of a developer (its first project) or of a project, with every other filter at its default. */
export function dashboardUrl(developerId: number, projectId: number | null): string {
  const params = writeFilters({
    developerId,
    projectId,
    chartType: 'NONE',
    from: null,
    to: null,
    smooth: true,
    availableOnly: false,
    index: false,
  });
  return `/${params.size ? `?${params}` : ''}`;
}

/** Developer change: its first project will be chosen, and the dates follow the new project. */
export const withDeveloper = (f: DashboardFilters, developerId: number): DashboardFilters => ({
  ...f,
  developerId,
  projectId: null,
  from: null,
  to: null,
});

/** Project change: the start date becomes the project's minFlatCreatedAt (spec §4). */
export const withProject = (f: DashboardFilters, projectId: number): DashboardFilters => ({
  ...f,
  projectId,
  from: null,
});

export const withChartType = (f: DashboardFilters, chartType: ChartType): DashboardFilters => ({
  ...f,
  chartType,
});
export const withDates = (f: DashboardFilters, from: string, to: string): DashboardFilters => ({
  ...f,
  from,
  to,
});
export const withSmooth = (f: DashboardFilters, smooth: boolean): DashboardFilters => ({ ...f, smooth });
export const withIndex = (f: DashboardFilters, index: boolean): DashboardFilters => ({ ...f, index });
export const withAvailableOnly = (f: DashboardFilters, availableOnly: boolean): DashboardFilters => ({
  ...f,
  availableOnly,
});

/** The developer shown: the URL's when it exists, else the first one (null while the list is loading). */
export function pickDeveloperId(
  f: DashboardFilters,
  developers: { id: number }[] | undefined,
): number | null {
  return developers && !developers.some((d) => d.id === f.developerId)
    ? (developers[0]?.id ?? null)
    : f.developerId;
}

/**
 * The project shown, its range and the stats request. By default the range runs from the project's first
 * snapshot to today, or to its last snapshot when that is later: lists are dated by the day where they are
 * collected (COLLECT_TZ, Moscow), which a browser west of it reaches only after its own midnight.
 */
export function pickStats<
  P extends { id: number; minFlatCreatedAt: string | null; lastSnapshotDate: string | null },
>(f: DashboardFilters, projects: P[] | undefined, today: string) {
  const project = projects?.find((p) => p.id === f.projectId) ?? projects?.[0] ?? null;
  const from = f.from ?? project?.minFlatCreatedAt ?? DEFAULT_FROM;
  const last = project?.lastSnapshotDate ?? null;
  const to = f.to ?? (last !== null && last > today ? last : today);
  const rangeError = from > to ? 'Дата начала позже даты окончания' : null;
  const status = f.availableOnly ? ('AVAILABLE' as const) : ('ALL' as const);
  const statsRequest = project && !rangeError ? { projectId: project.id, from, to, status } : null;
  return { project, from, to, rangeError, statsRequest };
}
