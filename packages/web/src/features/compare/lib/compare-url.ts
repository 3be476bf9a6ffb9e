import { COMPARE_MAX, COMPARE_METRICS, type CompareMetric } from '@cena-metra/contract';

/** The comparison's state in its URL: `/compare?projects=1,2,3&metric=index&from=…&to=…&status=available`. */
export interface CompareState {
  projectIds: number[];
  metric: CompareMetric;
  from: string;
  to: string;
  availableOnly: boolean;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const yearBefore = (iso: string) => `${Number(iso.slice(0, 4)) - 1}${iso.slice(4)}`;

/** Reads the URL: ids kept in order, unique, positive, at most 10; a year to `today` by default. */
export function readCompare(params: URLSearchParams, today: string): CompareState {
  const ids: number[] = [];
  for (const part of (params.get('projects') ?? '').split(',')) {
    const id = Number(part);
    if (Number.isInteger(id) && id > 0 && !ids.includes(id) && ids.length < COMPARE_MAX) ids.push(id);
  }
  const metric = params.get('metric') as CompareMetric | null;
  const to = DATE.test(params.get('to') ?? '') ? params.get('to')! : today;
  const from = DATE.test(params.get('from') ?? '') ? params.get('from')! : yearBefore(to);
  return {
    projectIds: ids,
    metric: metric && COMPARE_METRICS.includes(metric) ? metric : 'avgMeterPrice',
    from,
    to,
    availableOnly: params.get('status') === 'available',
  };
}

export function writeCompare(s: CompareState, today: string): URLSearchParams {
  const p = new URLSearchParams();
  if (s.projectIds.length) p.set('projects', s.projectIds.join(','));
  if (s.metric !== 'avgMeterPrice') p.set('metric', s.metric);
  if (s.to !== today) p.set('to', s.to);
  if (s.from !== yearBefore(s.to)) p.set('from', s.from);
  if (s.availableOnly) p.set('status', 'available');
  return p;
}

/** A project added (at the end, once, while fewer than 10) or removed. */
export const withProject = (s: CompareState, id: number): CompareState =>
  s.projectIds.includes(id) || s.projectIds.length >= COMPARE_MAX
    ? s
    : { ...s, projectIds: [...s.projectIds, id] };
export const withoutProject = (s: CompareState, id: number): CompareState => ({
  ...s,
  projectIds: s.projectIds.filter((x) => x !== id),
});

/** The first and last values of a series with data, and the change between them (% of the first). */
export function seriesChange(points: { date: string; value: number | null }[]) {
  const values = points.filter((p) => p.value !== null) as { date: string; value: number }[];
  const first = values[0] ?? null;
  const last = values.at(-1) ?? null;
  const change =
    first && last && first.value !== 0
      ? Math.round(((last.value - first.value) / first.value) * 10_000) / 100
      : null;
  return { first, last, change };
}
