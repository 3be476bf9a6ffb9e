import { formatChange, formatPercent, formatRoubles, type MarketMapResponse } from '@cena-metra/contract';

/** What colours the map's circles (DESIGN §11.3): the average ppm or the index's change over the period. */
export type MapColour = 'avgMeterPrice' | 'indexChange';
export const MAP_COLOUR_LABELS: Record<MapColour, string> = {
  avgMeterPrice: 'Ср. цена м², ₽',
  indexChange: 'Индекс за период, %',
};

/** A project on the map, as the map's answer in columns gives it (`at`: its place there). */
export interface MapPoint {
  id: number;
  developerId: number;
  name: string;
  longitude: number;
  latitude: number;
  /** a project only the registry knows: grey, no dashboard */
  registry: boolean;
  /** what its circle's area shows: the stock; a registry-only project's flats */
  size: number;
  avgMeterPrice: number | null;
  indexChange: number | null;
  at: number;
}

/** The answer's points, in its order (the registry-only ones first: drawn under ours). */
export function mapPoints(map: MarketMapResponse): MapPoint[] {
  return map.id.map((id, at) => ({
    id,
    developerId: map.developerId[at],
    name: map.name[at],
    longitude: map.longitude[at],
    latitude: map.latitude[at],
    registry: id < 0,
    size: map.size[at],
    avgMeterPrice: map.avgMeterPrice[at],
    indexChange: map.indexChange[at],
    at,
  }));
}

/** A circle's diameter, px: its area grows with the stock, 8 px for an empty project to 48 px for the largest. */
export function circleSize(stock: number, largest: number): number {
  if (largest <= 0) return 8;
  return Math.round(8 + 40 * Math.sqrt(Math.max(0, stock) / largest));
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The tooltip of the answer's point `at`: its name, place and figures (a registry-only one's registry figures). */
export function pointTooltip(map: MarketMapResponse, at: number): string {
  const name = `<b>${escapeHtml(map.name[at])}</b> · ${escapeHtml(map.developers[map.developer[at]])}`;
  if (map.id[at] < 0) {
    const sold = map.soldShare[at];
    const ready = map.ready[at];
    const address = map.address[at];
    return [
      name,
      'Только в реестре: прайс-листа нет',
      address ? escapeHtml(address) : '',
      `Объектов: ${map.objects[at] ?? '—'}, квартир: ${map.size[at] || '—'}`,
      `Продано по реестру: ${sold === null ? '—' : formatPercent(Math.round(sold * 10_000) / 100)}`,
      ready ? `Ввод: ${new Date(`${ready}T00:00:00`).toLocaleDateString('ru-RU')}` : '',
    ]
      .filter(Boolean)
      .join('<br>');
  }
  const { city, district, station } = map.places[map.place[at]];
  const place = [city, district].filter(Boolean).join(', ');
  const price = map.avgMeterPrice[at];
  const absorption = map.absorption[at];
  return [
    name,
    place ? escapeHtml(place) + (station ? ` · м. ${escapeHtml(station)}` : '') : '',
    `В продаже: ${map.size[at]}`,
    `Ср. цена м²: ${price === null ? '—' : `${formatRoubles(price)} ₽`}`,
    `Индекс за период: ${formatChange(map.indexChange[at])}`,
    `Вымываемость 30 дн.: ${absorption === null ? '—' : formatPercent(absorption)}`,
  ]
    .filter(Boolean)
    .join('<br>');
}
