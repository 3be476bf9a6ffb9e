import {
  buildingLabel,
  type ChartType,
  FACINGS,
  facingLabel,
  type GroupColumns,
  quarterLabel,
  type RoomGroup,
  roomsLabel,
  type StatsColumn,
  type StatsColumns,
  type StatsGroupKey,
} from '@cena-metra/contract';
import { PALETTE } from '../../../components/chart/palette';
import type { ChartSeries, DateBand } from '../../../components/chart/types';

export type { ChartSeries, DateBand };

const DAY_MS = 86_400_000;
const shift = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY_MS);

/**
 * The spans without data (DESIGN §10.1) between consecutive days that have data: the server sends a count
 * for every day with data, so a missing day is a day without data.
 */
export function noDataBands(dates: string[]): DateBand[] {
  const bands: DateBand[] = [];
  for (let i = 1; i < dates.length; i++)
    if (daysBetween(dates[i - 1], dates[i]) > 1)
      bands.push({ from: shift(dates[i - 1], 1), to: shift(dates[i], -1) });
  return bands;
}

/** Where a series on these days breaks: before index `at`, a null point on `day`, the first missing day. */
interface Break {
  at: number;
  day: string;
}

function breaksOf(dates: readonly string[]): Break[] {
  const breaks: Break[] = [];
  for (let i = 1; i < dates.length; i++)
    if (daysBetween(dates[i - 1], dates[i]) > 1) breaks.push({ at: i, day: shift(dates[i - 1], 1) });
  return breaks;
}

function withBreaks(data: ChartSeries['data'], breaks: readonly Break[]): ChartSeries['data'] {
  if (breaks.length === 0) return data;
  const out: ChartSeries['data'] = [];
  let next = 0;
  for (let i = 0; i < data.length; i++) {
    if (next < breaks.length && breaks[next].at === i) out.push([breaks[next++].day, null]);
    out.push(data[i]);
  }
  return out;
}

/** A series broken where its days stop: a null point on the first missing day, so no line crosses the gap. */
export function breakAtGaps(data: ChartSeries['data']): ChartSeries['data'] {
  return withBreaks(data, breaksOf(data.map(([date]) => date)));
}

/** The nine dashboard charts (spec §2): four breakdowns of all rooms, four room groups, the flat counts. */
export interface ChartSpec {
  id: string;
  title: string;
  group: RoomGroup | null;
  /** fixed breakdown, or null for «the selected chart type» */
  breakdown: ChartType | null;
}

export const CHARTS: ChartSpec[] = [
  { id: 'all-rooms', title: 'Все квартиры по комнатности', group: 'all', breakdown: 'ROOMS_NUMBER' },
  { id: 'all-facing', title: 'Все квартиры по отделке', group: 'all', breakdown: 'FACING' },
  { id: 'all-settlement', title: 'Все квартиры по дате сдачи', group: 'all', breakdown: 'SETTLEMENT_DATE' },
  { id: 'all-building', title: 'Все квартиры по корпусам', group: 'all', breakdown: 'BUILDING' },
  { id: 'studio', title: 'Студии', group: 'studio', breakdown: null },
  { id: 'one', title: '1-комнатные', group: 'one', breakdown: null },
  { id: 'two', title: '2-комнатные', group: 'two', breakdown: null },
  { id: 'three', title: '3-комнатные и больше', group: 'threeAndMore', breakdown: null },
  { id: 'count', title: 'Количество квартир', group: null, breakdown: null },
];

export const CHART_TYPE_LABELS: Record<ChartType, string> = {
  NONE: 'Без типа',
  FACING: 'Отделка',
  SETTLEMENT_DATE: 'Дата сдачи',
  BUILDING: 'Корпус',
  ROOMS_NUMBER: 'Комнатность',
};

export { PALETTE };

export const GROUP_DATA: Record<RoomGroup, StatsGroupKey> = {
  all: 'allRoomsData',
  studio: 'studioData',
  one: 'oneRoomData',
  two: 'twoRoomsData',
  threeAndMore: 'threeAndMoreRoomData',
};

type MapField =
  | 'avgMeterPriceByFacing'
  | 'avgMeterPriceBySettlementDate'
  | 'avgMeterPriceByBuilding'
  | 'avgMeterPriceByRoomsNumber';

const BREAKDOWNS: Record<
  Exclude<ChartType, 'NONE'>,
  { field: MapField; label: (key: string) => string; compare: (a: string, b: string) => number }
> = {
  FACING: {
    field: 'avgMeterPriceByFacing',
    label: facingLabel,
    compare: (a, b) => rank(FACINGS, a) - rank(FACINGS, b) || a.localeCompare(b),
  },
  SETTLEMENT_DATE: {
    field: 'avgMeterPriceBySettlementDate',
    label: quarterLabel,
    compare: (a, b) => a.localeCompare(b),
  },
  BUILDING: {
    field: 'avgMeterPriceByBuilding',
    label: buildingLabel,
    compare: (a, b) => a.localeCompare(b, 'ru', { numeric: true }),
  },
  ROOMS_NUMBER: {
    field: 'avgMeterPriceByRoomsNumber',
    label: roomsLabel,
    compare: (a, b) => Number(a) - Number(b),
  },
};

function rank(order: readonly string[], key: string): number {
  const i = order.indexOf(key);
  return i < 0 ? order.length : i;
}

/** Where a column has a value, as indexes into the answer's dates. */
function present(column: StatsColumn): number[] {
  const at: number[] = [];
  for (let i = 0; i < column.length; i++) if (column[i] !== null) at.push(i);
  return at;
}

/**
 * Series of one price chart from its group's columns: min, avg and max per m² on the days the group has
 * flats, then one series per breakdown key (keys 'null' ignored, spec §3) with a gap (null) on days the key
 * has no active flat; colours cycle the palette.
 */
export function priceSeries(dates: string[], group: GroupColumns, breakdown: ChartType): ChartSeries[] {
  const at = present(group.avgMeterPrice);
  const pick = (column: StatsColumn): ChartSeries['data'] => at.map((i) => [dates[i], column[i]]);
  const series: ChartSeries[] = [
    { name: 'Минимум', kind: 'min', color: '#94a3b8', data: pick(group.minMeterPrice) },
    { name: 'Среднее', kind: 'avg', color: '#0f172a', data: pick(group.avgMeterPrice) },
    { name: 'Максимум', kind: 'max', color: '#64748b', data: pick(group.maxMeterPrice) },
  ];
  if (breakdown === 'NONE') return series;
  const { field, label, compare } = BREAKDOWNS[breakdown];
  const columns = group[field];
  Object.keys(columns)
    .filter((key) => key !== 'null')
    .sort(compare)
    .forEach((key, i) => {
      series.push({
        name: label(key),
        kind: 'breakdown',
        color: PALETTE[i % PALETTE.length],
        data: pick(columns[key]),
      });
    });
  return series;
}

/** The flat-count chart: the count series of the answer, as they come, each on the days it has. */
export function countSeries(dates: string[], list: StatsColumns['flatsCountList']): ChartSeries[] {
  return list.map((s, i) => ({
    name: s.label,
    kind: 'count',
    color: PALETTE[i % PALETTE.length],
    data: present(s.counts).map((k) => [dates[k], s.counts[k]]),
  }));
}

/** The series of chart `spec` from a stats answer (columns) and the selected chart type, broken at gaps. */
export function chartSeries(spec: ChartSpec, stats: StatsColumns, chartType: ChartType): ChartSeries[] {
  const series =
    spec.group === null
      ? countSeries(stats.dates, stats.flatsCountList)
      : priceSeries(stats.dates, stats[GROUP_DATA[spec.group]], spec.breakdown ?? chartType);
  // the series of a price chart share their days (the group's): where they break is worked out once
  const breaks = spec.group === null ? null : breaksOf(series[0].data.map(([date]) => date));
  return series.map((s) => ({ ...s, data: breaks ? withBreaks(s.data, breaks) : breakAtGaps(s.data) }));
}
