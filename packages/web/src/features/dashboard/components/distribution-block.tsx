import { type DistributionRequest, formatRoubles, ROOM_GROUPS, type RoomGroup } from '@cena-metra/contract';
import { useState } from 'react';
import { HistogramChart } from '../../../components/chart/histogram-chart';
import { Button, Skeleton } from '../../../components/ui';
import { useSeen } from '../../../lib/in-view';
import { useDistribution } from '../api';

export const GROUP_LABELS: Record<RoomGroup, string> = {
  all: 'Все',
  studio: 'Студии',
  one: '1-комн.',
  two: '2-комн.',
  threeAndMore: '3+ комн.',
};

/** «Распределение цен м²»: a histogram of the flats on sale on the range's last day with data, per room group. */
export function DistributionBlock({ request }: { request: DistributionRequest }) {
  const [group, setGroup] = useState<RoomGroup>('all');
  // asked when the block comes into view (DESIGN §12.2)
  const [ref, seen] = useSeen<HTMLElement>();
  const q = useDistribution(seen ? request : null);
  const data = q.data?.groups.find((g) => g.group === group);
  return (
    <section
      ref={ref}
      className="mb-6 rounded-2xl bg-white p-4 dark:bg-slate-900"
      data-testid="distribution"
      aria-busy={!q.data && !q.error}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h3 className="font-semibold leading-tight">
          Распределение цен м², тыс. ₽
          {q.data?.date && (
            <span className="ml-2 font-normal text-gray-500 text-sm dark:text-slate-400">
              на {new Date(`${q.data.date}T00:00:00`).toLocaleDateString('ru-RU')}
              {data?.median != null && ` · медиана ${formatRoubles(data.median)} ₽ · ${data.count} кв.`}
            </span>
          )}
        </h3>
        <fieldset className="flex flex-wrap gap-1" aria-label="Комнатность">
          {ROOM_GROUPS.map((g) => (
            <Button
              key={g}
              small
              color={g === group ? 'info' : 'white'}
              aria-pressed={g === group}
              data-testid={`distribution-${g}`}
              onClick={() => setGroup(g)}
            >
              {GROUP_LABELS[g]}
            </Button>
          ))}
        </fieldset>
      </div>
      {!q.data && !q.error ? (
        <Skeleton className="h-[300px]" />
      ) : q.error ? (
        <p role="alert" className="rounded-lg bg-red-600 px-4 py-3 text-white">
          {q.error.message}
        </p>
      ) : data && data.count === 0 ? (
        <p className="p-10 text-center text-gray-500" data-testid="distribution-empty">
          В этот день таких квартир в продаже нет.
        </p>
      ) : (
        <HistogramChart id="ppm" bins={data?.bins ?? []} height={300} />
      )}
    </section>
  );
}
