import { formatDecimal2, formatPercent, type PacePointView, type StatsStatus } from '@cena-metra/contract';
import { mdiSpeedometer } from '@mdi/js';
import { useMemo } from 'react';
import { paceLines } from '../../../components/chart/pace-lines';
import { TimeChart } from '../../../components/chart/time-chart';
import type { DateBand } from '../../../components/chart/types';
import { Icon } from '../../../components/icon';
import { Skeleton } from '../../../components/ui';
import { useSeen } from '../../../lib/in-view';
import { useProjectPace } from '../api';

const days = (v: number | null) => (v === null ? '—' : `${formatDecimal2(v).replace(/,00$/, '')} дн.`);

/** The figures of the last day with data, as cards. */
export const PACE_FIGURES: { label: string; hint: string; value: (p: PacePointView) => string }[] = [
  {
    label: 'В продаже',
    hint: 'Активные квартиры на последний день с данными',
    value: (p) => String(p.stock),
  },
  { label: 'Новые за 30 дней', hint: 'Квартиры, появившиеся в продаже', value: (p) => String(p.new30) },
  {
    label: 'Выбыли за 30 дней',
    hint: 'Снятые с продажи и не вернувшиеся',
    value: (p) => String(p.gone30),
  },
  {
    label: 'Вымываемость 30 дней',
    hint: 'Выбывшие ÷ (в продаже 30 дней назад + новые)',
    value: (p) => (p.absorption === null ? '—' : formatPercent(p.absorption)),
  },
  {
    label: 'Запас, мес.',
    hint: 'В продаже ÷ выбывшие за 30 дней',
    value: (p) => (p.monthsOfSupply === null ? '—' : formatDecimal2(p.monthsOfSupply)),
  },
  {
    label: 'Срок продажи',
    hint: 'Медиана дней от появления до выбытия, за 30 дней',
    value: (p) => days(p.medianDaysOnMarket),
  },
  {
    label: 'Возраст предложения',
    hint: 'Медиана дней в продаже у активных квартир',
    value: (p) => days(p.medianStockAge),
  },
];

/** The dashboard's «Темп продаж» (DESIGN §10.5): the last day's figures, stock and absorption over the range. */
export function PaceBlock({
  projectId,
  from,
  to,
  status,
  gaps,
  fileBase,
}: {
  projectId: number;
  from: string;
  to: string;
  status: StatsStatus;
  gaps: DateBand[];
  fileBase: string;
}) {
  // asked when the block comes into view (DESIGN §12.2)
  const [ref, seen] = useSeen<HTMLElement>();
  const pace = useProjectPace(seen ? { projectId, from, to, status } : null);
  const series = useMemo(() => paceLines(pace.data?.points ?? []), [pace.data]);
  const last = pace.data?.last ?? null;
  return (
    <section ref={ref} className="mb-6" data-testid="pace-block" aria-busy={!pace.data}>
      <h2 className="mb-4 flex items-center gap-2 font-semibold text-xl">
        <Icon path={mdiSpeedometer} size={22} />
        Темп продаж
        {last && (
          <span className="font-normal text-gray-500 text-sm dark:text-slate-400">
            на {new Date(`${last.date}T00:00:00`).toLocaleDateString('ru-RU')}
          </span>
        )}
      </h2>
      {pace.error && (
        <p role="alert" className="mb-4 rounded-lg bg-red-600 px-4 py-3 text-white">
          {pace.error.message}
        </p>
      )}
      {!pace.data && !pace.error ? (
        <Skeleton className="mb-6 h-24" />
      ) : (
        <div className="mb-6 grid grid-cols-2 gap-4 md:grid-cols-4 xl:grid-cols-7" data-testid="pace-figures">
          {PACE_FIGURES.map((f) => (
            <div key={f.label} className="rounded-2xl bg-white p-4 dark:bg-slate-900/70" title={f.hint}>
              <div className="text-gray-500 text-xs dark:text-slate-400">{f.label}</div>
              <div className="font-semibold text-xl">{last ? f.value(last) : '—'}</div>
            </div>
          ))}
        </div>
      )}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TimeChart
          id="pace-stock"
          title="Предложение: в продаже, новые и выбывшие за 30 дней"
          series={series.stock}
          height={320}
          fileName={`${fileBase} предложение`}
          look={{ smooth: false, alwaysSteps: true, yName: 'Квартир', counts: true, gaps }}
        />
        <TimeChart
          id="pace-absorption"
          title="Вымываемость за 30 дней"
          series={series.absorption}
          height={320}
          fileName={`${fileBase} вымываемость`}
          look={{ smooth: false, yName: '%', decimals: true, gaps }}
        />
      </div>
    </section>
  );
}
