import { formatChange, formatPercent, formatRoubles, type MarketRow } from '@cena-metra/contract';
import { isRegistryOnly, registryOf } from './registry-rows';

/** What colours the map's circles (DESIGN §11.3): the average ppm or the index's change over the period. */
export type MapColour = 'avgMeterPrice' | 'indexChange';
export const MAP_COLOUR_LABELS: Record<MapColour, string> = {
  avgMeterPrice: 'Ср. цена м², ₽',
  indexChange: 'Индекс за период, %',
};

/** A project on the map: its coordinates, and the row it came from. */
export interface MapPoint {
  row: MarketRow;
  longitude: number;
  latitude: number;
}

/** The projects with coordinates (the registry-only ones first), and those without (listed under the map). */
export function mapPoints(rows: MarketRow[]): { points: MapPoint[]; unplaced: MarketRow[] } {
  const points: MapPoint[] = [];
  const unplaced: MarketRow[] = [];
  for (const row of rows) {
    const lat = row.place?.latitude ?? null;
    const lon = row.place?.longitude ?? null;
    if (lat === null || lon === null) unplaced.push(row);
    else points.push({ row, longitude: lon, latitude: lat });
  }
  // the registry-only projects drawn first, under ours (grey context; ours stay clickable)
  const only = points.filter((p) => isRegistryOnly(p.row));
  return { points: [...only, ...points.filter((p) => !isRegistryOnly(p.row))], unplaced };
}

/** A circle's diameter, px: its area grows with the stock, 8 px for an empty project to 48 px for the largest. */
export function circleSize(stock: number, largest: number): number {
  if (largest <= 0) return 8;
  return Math.round(8 + 40 * Math.sqrt(Math.max(0, stock) / largest));
}

/** What a circle's area shows: a project's stock, or a registry-only project's flats (it has no list). */
export const circleValue = (r: MarketRow) => (isRegistryOnly(r) ? (registryOf(r)?.flats ?? 0) : r.stock);

/** The value a circle is coloured by: none for a registry-only project (grey). */
const colourValue = (r: MarketRow, colour: MapColour) => (isRegistryOnly(r) ? null : r[colour]);

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The tooltip of a project's circle: its name, place and figures. */
export function pointTooltip(row: MarketRow): string {
  const place = [row.place?.city, row.place?.district].filter(Boolean).join(', ');
  const station = row.place?.stations[0]?.name;
  const registry = registryOf(row);
  if (isRegistryOnly(row) && registry)
    return [
      `<b>${escapeHtml(row.name)}</b> · ${escapeHtml(row.developerName)}`,
      'Только в реестре: прайс-листа нет',
      registry.address ? escapeHtml(registry.address) : '',
      `Объектов: ${registry.objects}, квартир: ${registry.flats ?? '—'}`,
      `Продано по реестру: ${registry.soldShare === null ? '—' : formatPercent(Math.round(registry.soldShare * 10_000) / 100)}`,
      registry.ready ? `Ввод: ${new Date(`${registry.ready}T00:00:00`).toLocaleDateString('ru-RU')}` : '',
    ]
      .filter(Boolean)
      .join('<br>');
  const lines = [
    `<b>${escapeHtml(row.name)}</b> · ${escapeHtml(row.developerName)}`,
    place ? escapeHtml(place) + (station ? ` · м. ${escapeHtml(station)}` : '') : '',
    `В продаже: ${row.stock}`,
    `Ср. цена м²: ${row.avgMeterPrice === null ? '—' : `${formatRoubles(row.avgMeterPrice)} ₽`}`,
    `Индекс за период: ${formatChange(row.indexChange)}`,
    `Вымываемость 30 дн.: ${row.absorption === null ? '—' : formatPercent(row.absorption)}`,
  ];
  return lines.filter(Boolean).join('<br>');
}

/**
 * The map of projects as an ECharts option: a circle per project on longitude × latitude axes (no tiles,
 * nothing fetched: the page works offline), its area by stock and its colour by `colour` with a legend;
 * the wheel zooms and a drag pans. The latitude axis is stretched by 1 / cos(latitude) so a city keeps its shape.
 */
export function mapOption(points: MapPoint[], colour: MapColour, dark: boolean) {
  const text = dark ? '#cbd5e1' : '#334155';
  const grid = dark ? '#334155' : '#e5e7eb';
  const largest = Math.max(0, ...points.map((p) => circleValue(p.row)));
  const values = points.map((p) => colourValue(p.row, colour)).filter((v): v is number => v !== null);
  const min = values.length ? Math.min(...values) : 0;
  const max = values.length ? Math.max(...values) : 1;
  const midLat = points.length ? points.reduce((s, p) => s + p.latitude, 0) / points.length : 55;
  // a degree of longitude is cos(latitude) of a degree of latitude: the latitudes are drawn stretched
  const stretch = 1 / Math.cos((midLat * Math.PI) / 180);
  const axis = (name: string, scale: number) => ({
    type: 'value' as const,
    name,
    scale: true,
    nameTextStyle: { color: text },
    axisLabel: { color: text, formatter: (v: number) => `${(v / scale).toFixed(2)}°` },
    axisLine: { lineStyle: { color: grid } },
    splitLine: { lineStyle: { color: grid, type: 'dashed' as const } },
  });
  return {
    animation: false,
    backgroundColor: 'transparent',
    textStyle: { fontFamily: 'Nunito, sans-serif', color: text },
    grid: { left: 8, right: 96, top: 24, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (item: { dataIndex: number }) => pointTooltip(points[item.dataIndex].row),
    },
    xAxis: axis('долгота', 1),
    yAxis: axis('широта', stretch),
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'inside', yAxisIndex: 0, filterMode: 'none' },
    ],
    visualMap: {
      type: 'continuous',
      dimension: 2,
      min,
      max: max > min ? max : min + 1,
      right: 0,
      top: 'middle',
      calculable: false,
      text: [MAP_COLOUR_LABELS[colour], ''],
      textStyle: { color: text },
      inRange: { color: ['#22c55e', '#eab308', '#ef4444'] },
      formatter: (v: number) => (colour === 'avgMeterPrice' ? formatRoubles(v) : formatChange(v)),
    },
    series: [
      {
        type: 'scatter',
        // longitude, latitude stretched, the colour's value (null: grey), the circle's size
        data: points.map((p) => ({
          value: [p.longitude, p.latitude * stretch, colourValue(p.row, colour) ?? '-'],
          name: p.row.name,
          symbolSize: circleSize(circleValue(p.row), largest),
        })),
        itemStyle: { opacity: 0.8, borderColor: dark ? '#0f172a' : '#ffffff', borderWidth: 1 },
        emphasis: { itemStyle: { opacity: 1, borderColor: text } },
        cursor: 'pointer',
      },
    ],
  };
}
