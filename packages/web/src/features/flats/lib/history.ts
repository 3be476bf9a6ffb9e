import type { FlatCard } from '@cena-metra/contract';
import type { ChartSeries } from '../../../components/chart/types';

export interface PriceChangeRow {
  date: string;
  price: number;
  meterPrice: number;
  /** change from the previous price, %; null for the first listing */
  changePercent: number | null;
}

/** The flat's price changes with the percent of each, oldest first. */
export function priceChanges(card: FlatCard): PriceChangeRow[] {
  return card.priceHistory.map((p, i) => {
    const previous = card.priceHistory[i - 1];
    return {
      ...p,
      changePercent: previous
        ? Math.round(((p.price - previous.price) / previous.price) * 10_000) / 100
        : null,
    };
  });
}

/**
 * The price-history chart: price per m² as steps (a price holds until the next change), carried to the
 * last day the flat was seen so the last step has a length.
 */
export function historySeries(card: FlatCard): ChartSeries[] {
  const data: ChartSeries['data'] = card.priceHistory.map((p) => [p.date, p.meterPrice]);
  const last = card.priceHistory.at(-1);
  if (last && card.lastSeen > last.date) data.push([card.lastSeen, last.meterPrice]);
  return [{ name: 'Цена за м²', kind: 'avg', color: '#2563eb', data }];
}
