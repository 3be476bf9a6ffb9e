import {
  MARKET_FIRST_VIEW_DAYS,
  type MarketRow,
  PLACE_GROUPS,
  type PlaceGroup,
  PRICE_CLASSES,
  type PriceClass,
} from '@cena-metra/contract';
import { byName, sortByValue } from '../../../lib/columns';
import { isRegistryOnly } from './registry-rows';

export type MarketSortKey =
  | 'name'
  | 'developerName'
  | 'priceClass'
  | 'stock'
  | 'new30'
  | 'gone30'
  | 'absorption'
  | 'monthsOfSupply'
  | 'medianDaysOnMarket'
  | 'avgMeterPrice'
  | 'indexChange';

const classRank = (c: PriceClass | null) => (c === null ? null : PRICE_CLASSES.indexOf(c));

/** Keys whose value a registry-only project has (it has no list: no stock, pace or price). */
const REGISTRY_KEYS: MarketSortKey[] = ['name', 'developerName', 'priceClass'];

/** Market rows sorted by a column; nulls last whatever the direction; ties by name. */
export function sortMarketRows<R extends MarketRow>(rows: R[], key: MarketSortKey, dir: 'asc' | 'desc'): R[] {
  const value = (r: MarketRow) =>
    isRegistryOnly(r) && !REGISTRY_KEYS.includes(key)
      ? null
      : key === 'priceClass'
        ? classRank(r.priceClass)
        : r[key];
  return sortByValue(
    rows,
    value,
    dir,
    byName((r) => r.name),
  );
}

export const MARKET_VIEWS = ['projects', 'developers', 'places', 'below'] as const;
export type MarketView = (typeof MARKET_VIEWS)[number];

/** The market page's state in its URL: period, status, developer, class, table and sort. */
export interface MarketFilters {
  from: string;
  to: string;
  availableOnly: boolean;
  developerId: number | null;
  priceClass: PriceClass | null;
  /** the place filters (DESIGN §11.3) */
  region: string | null;
  city: string | null;
  district: string | null;
  station: string | null;
  /** only the projects with price lists (none of the registry-only ones) */
  listsOnly: boolean;
  /** what the table of places groups by */
  groupBy: PlaceGroup;
  view: MarketView;
  sort: { key: MarketSortKey; dir: 'asc' | 'desc' };
}

const SORT_KEYS: MarketSortKey[] = [
  'name',
  'developerName',
  'priceClass',
  'stock',
  'new30',
  'gone30',
  'absorption',
  'monthsOfSupply',
  'medianDaysOnMarket',
  'avgMeterPrice',
  'indexChange',
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const shiftDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Reads the page's URL; the default period is the 90 days to `today`, sorted by absorption, highest first. */
export function readMarketFilters(params: URLSearchParams, today: string): MarketFilters {
  const to = DATE.test(params.get('to') ?? '') ? params.get('to')! : today;
  const from = DATE.test(params.get('from') ?? '')
    ? params.get('from')!
    : shiftDays(to, -MARKET_FIRST_VIEW_DAYS);
  const sort = params.get('sort') ?? '-absorption';
  const key = sort.replace(/^-/, '') as MarketSortKey;
  const cls = params.get('class') as PriceClass | null;
  return {
    from,
    to,
    availableOnly: params.get('status') === 'available',
    developerId: Number(params.get('developer')) || null,
    priceClass: cls && PRICE_CLASSES.includes(cls) ? cls : null,
    region: params.get('region') || null,
    city: params.get('city') || null,
    district: params.get('district') || null,
    station: params.get('station') || null,
    listsOnly: params.get('lists') === 'only',
    groupBy: PLACE_GROUPS.includes(params.get('by') as PlaceGroup)
      ? (params.get('by') as PlaceGroup)
      : 'district',
    view: MARKET_VIEWS.includes(params.get('view') as MarketView)
      ? (params.get('view') as MarketView)
      : 'projects',
    sort: SORT_KEYS.includes(key)
      ? { key, dir: sort.startsWith('-') ? 'desc' : 'asc' }
      : { key: 'absorption', dir: 'desc' },
  };
}

/** The URL of a state: what is the default is left out. */
export function writeMarketFilters(f: MarketFilters, today: string): URLSearchParams {
  const p = new URLSearchParams();
  if (f.to !== today) p.set('to', f.to);
  if (f.from !== shiftDays(f.to, -90)) p.set('from', f.from);
  if (f.availableOnly) p.set('status', 'available');
  if (f.developerId) p.set('developer', String(f.developerId));
  if (f.priceClass) p.set('class', f.priceClass);
  if (f.region) p.set('region', f.region);
  if (f.city) p.set('city', f.city);
  if (f.district) p.set('district', f.district);
  if (f.station) p.set('station', f.station);
  if (f.listsOnly) p.set('lists', 'only');
  if (f.groupBy !== 'district') p.set('by', f.groupBy);
  if (f.view !== 'projects') p.set('view', f.view);
  const sort = `${f.sort.dir === 'desc' ? '-' : ''}${f.sort.key}`;
  if (sort !== '-absorption') p.set('sort', sort);
  return p;
}
