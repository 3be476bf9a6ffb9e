import type { StatsStatus } from '@cena-metra/contract';
import { useMemo } from 'react';
import { PALETTE } from '../../../components/chart/palette';
import { TimeChart } from '../../../components/chart/time-chart';
import type { ChartSeries, DateBand } from '../../../components/chart/types';
import { useSeen } from '../../../lib/in-view';
import { useOfferSeries } from '../api';

/**
 * «Цена м² по условиям оплаты» (DESIGN §11.4): avg ppm of the list price beside each payment term's price
 * (100 % оплата, ипотека…), shown only when the project's lists price some term.
 */
export function OfferPricesBlock({
  request,
  listPrice,
  gaps,
  fileBase,
}: {
  request: { projectId: number; from: string; to: string; status: StatsStatus };
  /** the list price's avg ppm series of the charts (drawn first, for comparison) */
  listPrice: ChartSeries | null;
  gaps: DateBand[];
  fileBase: string;
}) {
  // asked when its place comes into view (DESIGN §12.2); with no terms the place stays an empty line
  const [ref, seen] = useSeen();
  const q = useOfferSeries(seen ? request : null);
  const series = useMemo<ChartSeries[]>(
    () => [
      ...(listPrice ? [{ ...listPrice, name: 'Цена по прайсу' }] : []),
      ...(q.data?.terms ?? []).map(
        (t, i): ChartSeries => ({
          name: t.label,
          kind: 'breakdown',
          color: PALETTE[(i + 1) % PALETTE.length],
          data: t.points.map((p) => [p.date, p.avgMeterPrice]),
        }),
      ),
    ],
    [q.data, listPrice],
  );
  if (!q.data?.terms.length) return <div ref={ref} />;
  return (
    <div ref={ref} className="mb-6" data-testid="offer-prices">
      <TimeChart
        id="offer-prices"
        title="Цена м² по условиям оплаты, ₽"
        series={series}
        height={360}
        fileName={`${fileBase} условия оплаты`}
        look={{ smooth: false, alwaysSteps: true, yName: '₽/м²', gaps }}
      />
    </div>
  );
}
