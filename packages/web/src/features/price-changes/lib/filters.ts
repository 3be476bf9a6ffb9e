import { EVENT_KINDS, type EventKind, isIsoDate, PRICE_CHANGE_SORTS } from '@cena-metra/contract';

export type PriceChangeSort = (typeof PRICE_CHANGE_SORTS)[number];

export interface PriceChangeFilters {
  from: string;
  to: string;
  developerId: number | null;
  projectId: number | null;
  kind: EventKind | null;
  sort: PriceChangeSort;
  page: number;
}

export const PAGE_SIZE = 50;

function minusDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

const positive = (v: string | null) => (v && /^\d{1,9}$/.test(v) && Number(v) > 0 ? Number(v) : null);

/** Filters of /tables from its URL; by default the 30 days up to `today`, newest first. */
export function readPriceChangeFilters(params: URLSearchParams, today: string): PriceChangeFilters {
  const to = params.get('to');
  const from = params.get('from');
  const kind = params.get('kind');
  const sort = params.get('sort');
  const end = to && isIsoDate(to) ? to : today;
  return {
    from: from && isIsoDate(from) ? from : minusDays(end, 30),
    to: end,
    developerId: positive(params.get('developer')),
    projectId: positive(params.get('project')),
    kind: (EVENT_KINDS as readonly string[]).includes(kind ?? '') ? (kind as EventKind) : null,
    sort: (PRICE_CHANGE_SORTS as readonly string[]).includes(sort ?? '')
      ? (sort as PriceChangeSort)
      : '-date',
    page: positive(params.get('page')) ?? 1,
  };
}

export function writePriceChangeFilters(f: PriceChangeFilters): URLSearchParams {
  const p = new URLSearchParams({ from: f.from, to: f.to });
  if (f.developerId) p.set('developer', String(f.developerId));
  if (f.projectId) p.set('project', String(f.projectId));
  if (f.kind) p.set('kind', f.kind);
  if (f.sort !== '-date') p.set('sort', f.sort);
  if (f.page > 1) p.set('page', String(f.page));
  return p;
}

/** The API query of these filters (the CSV takes the same without paging). */
export function apiQuery(f: PriceChangeFilters) {
  return {
    from: f.from,
    to: f.to,
    developerId: f.developerId ?? undefined,
    projectId: f.projectId ?? undefined,
    kind: f.kind ?? undefined,
    sort: f.sort,
    page: f.page,
    pageSize: PAGE_SIZE,
  };
}

/** A click on a sortable column: descending first, then ascending, on the same column. */
export function nextSort(
  current: PriceChangeSort,
  column: 'date' | 'changePercent' | 'newPrice',
): PriceChangeSort {
  return current === `-${column}` ? column : (`-${column}` as PriceChangeSort);
}
