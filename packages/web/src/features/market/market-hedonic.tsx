import { formatChange, PRICE_CLASS_LABELS, type PriceClass } from '@cena-metra/contract';
import { useMemo, useState } from 'react';
import { TimeChart } from '../../components/chart/time-chart';
import { Radio } from '../../components/controls';
import { useHedonic } from './api';
import { hedonicLines } from './lib/hedonic-lines';

/** Weekly points span two years at most (the server's bound): the period's last 103 weeks. */
function weeklyRequest<T extends { from: string; to: string }>(request: T): T & { step: 'week' } {
  const earliest = new Date(Date.parse(`${request.to}T00:00:00Z`) - 103 * 7 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return { ...request, from: request.from < earliest ? earliest : request.from, step: 'week' };
}

/**
 * «Индекс цен без учёта структуры» on «Рынок» (DESIGN §12.4): the hedonic index of the page's place and
 * class beside the average ppm, and the average's monthly change split into price and mix. A developer
 * or a station is not a segment of the model: the index is the place's and class's.
 */
export function MarketHedonic({
  request,
  fileBase,
  note,
}: {
  request: {
    from: string;
    to: string;
    region?: string;
    city?: string;
    district?: string;
    priceClass?: PriceClass;
  } | null;
  fileBase: string;
  /** what of the page's filters the index leaves out */
  note?: string;
}) {
  const [step, setStep] = useState<'month' | 'week'>('month');
  const hedonic = useHedonic(request && (step === 'week' ? weeklyRequest(request) : request));
  const lines = useMemo(() => hedonicLines(hedonic.data?.points ?? []), [hedonic.data]);
  const segment =
    [request?.region, request?.city, request?.district].filter(Boolean).join(', ') || 'Весь рынок';
  const title = `${segment}${request?.priceClass ? ` · ${PRICE_CLASS_LABELS[request.priceClass]}` : ''}`;
  const points = hedonic.data?.points ?? [];
  const first = points[0];
  const last = points.at(-1);
  return (
    <div className="mb-6" data-testid="market-hedonic">
      <div className="mb-3 flex flex-wrap items-center gap-4 text-sm" data-testid="hedonic-step">
        <span>Точки индекса:</span>
        {(
          [
            ['month', 'по месяцам'],
            ['week', 'по неделям (последние два года периода)'],
          ] as const
        ).map(([value, label]) => (
          <Radio
            key={value}
            name="hedonic-step"
            value={value}
            checked={step === value}
            onChange={() => setStep(value)}
          >
            {label}
          </Radio>
        ))}
      </div>
      {hedonic.isError && (
        <p className="mb-3 rounded-lg bg-red-500 px-4 py-3 text-white" role="alert">
          Индекс без учёта структуры: {hedonic.error.message}
        </p>
      )}
      {hedonic.data && points.length === 0 && (
        <p className="mb-3 rounded-lg bg-slate-100 px-4 py-3 dark:bg-slate-800" data-testid="hedonic-empty">
          Индекс без учёта структуры: в выборке нет {step === 'week' ? 'недель' : 'месяцев'} с наблюдениями
          (нужно 5 квартир проекта в окне 13 {step === 'week' ? 'недель' : 'месяцев'}).
        </p>
      )}
      {first && last && points.length > 1 && (
        <p className="mb-3 text-sm" data-testid="hedonic-summary">
          За период цены без учёта структуры: <b>{formatChange(last.index - 100)}</b>, средняя цена м²:{' '}
          <b>{formatChange((last.avgMeterPrice / first.avgMeterPrice - 1) * 100)}</b>; {last.observations}{' '}
          квартир в {last.projects} проектах в последн{step === 'week' ? 'юю неделю' : 'ем месяце'}
          {hedonic.data?.dropped
            ? `, ${hedonic.data.dropped} проектов с малым числом наблюдений не учтены`
            : ''}
          {note ? `. ${note}` : ''}.
        </p>
      )}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TimeChart
          id="market-hedonic-index"
          title={`${title}: индекс цен без учёта структуры`}
          series={lines.index}
          height={320}
          fileName={`${fileBase} индекс без учёта структуры`}
          look={{ smooth: false, yName: 'Индекс', decimals: true }}
        />
        <TimeChart
          id="market-hedonic-split"
          title={`${title}: изменение средней цены — цены и структура`}
          series={lines.split}
          height={320}
          fileName={`${fileBase} цены и структура`}
          look={{ smooth: false, yName: '%', decimals: true }}
        />
      </div>
    </div>
  );
}
