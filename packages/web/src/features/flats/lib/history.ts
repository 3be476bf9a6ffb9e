import type { FlatCard } from '@cena-metra/contract';
import type { ChartSeries } from '../../../components/chart/types';

/** The flat's price changes with the percent of each, oldest first. */
export { flatPriceChanges as priceChanges } from '@cena-metra/contract';

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
