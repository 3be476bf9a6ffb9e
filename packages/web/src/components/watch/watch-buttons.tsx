import { type WatchRules, watchRulesSchema } from '@cena-metra/contract';
import { mdiBellOutline, mdiBellRing } from '@mdi/js';
import { useState } from 'react';
import { useWatchActions, useWatches } from '../../api/watch';
import { useMay } from '../../lib/access';
import { toast } from '../toast';
import { Button } from '../ui';
import { type SegmentBounds, WatchDialog } from './watch-dialog';

const FLAT_RULES: WatchRules = watchRulesSchema.parse({});
const SEGMENT_RULES: WatchRules = watchRulesSchema.parse({ fresh: true });

/** On the flat card: watch the flat (with its rules), change them, or stop. Analysts' (DESIGN §11.5). */
export function FlatWatchControl({ flatId }: { flatId: number }) {
  return useMay('analyst') ? <FlatWatch flatId={flatId} /> : null;
}

function FlatWatch({ flatId }: { flatId: number }) {
  const watches = useWatches();
  const actions = useWatchActions();
  const [open, setOpen] = useState(false);
  const watch = watches.data?.find((w) => w.kind === 'flat' && w.flatId === flatId);
  if (watches.isLoading) return null;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-2" data-testid="flat-watch">
      {watch ? (
        <>
          <span
            className="inline-flex items-center gap-1 text-emerald-700 text-sm dark:text-emerald-400"
            data-testid="flat-watched"
          >
            В избранном
          </span>
          <Button small icon={mdiBellRing} onClick={() => setOpen(true)} data-testid="flat-watch-edit">
            Правила
          </Button>
          <Button
            small
            color="outline"
            data-testid="flat-unwatch"
            disabled={actions.remove.isPending}
            onClick={() =>
              actions.remove.mutate(watch.id, {
                onError: (e) => toast(`Не получилось: ${(e as Error).message}`),
              })
            }
          >
            Не следить
          </Button>
        </>
      ) : (
        <Button
          small
          color="info"
          icon={mdiBellOutline}
          onClick={() => setOpen(true)}
          data-testid="flat-watch-add"
        >
          Следить за квартирой
        </Button>
      )}
      <WatchDialog
        open={open}
        title={watch ? 'Правила уведомлений' : 'Следить за квартирой'}
        rules={watch?.rules ?? FLAT_RULES}
        busy={actions.add.isPending}
        onCancel={() => setOpen(false)}
        onSave={(rules) =>
          actions.add.mutate(
            { kind: 'flat', flatId, rules },
            {
              onSuccess: () => {
                setOpen(false);
                toast('Квартира в избранном: изменения появятся под колокольчиком', 'success');
              },
              onError: (e) => toast(`Не получилось: ${(e as Error).message}`),
            },
          )
        }
      />
    </div>
  );
}

/** On the dashboard: watch a segment of the project (building, rooms, price cap, finish). Analysts'. */
export function SegmentWatchButton(props: { projectId: number; buildings: string[] }) {
  return useMay('analyst') ? <SegmentWatch {...props} /> : null;
}

function SegmentWatch({ projectId, buildings }: { projectId: number; buildings: string[] }) {
  const actions = useWatchActions();
  const [open, setOpen] = useState(false);
  const bounds: SegmentBounds = { building: null, rooms: 'all', maxPrice: null, finish: null };
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="inline-flex items-center gap-1 rounded-full border border-gray-200 px-2 py-1 text-sm hover:bg-gray-100 dark:border-slate-700 dark:hover:bg-slate-800"
        data-testid="segment-watch"
      >
        Следить
      </button>
      <WatchDialog
        open={open}
        title="Следить за сегментом проекта"
        rules={SEGMENT_RULES}
        segment={bounds}
        buildings={buildings}
        busy={actions.add.isPending}
        onCancel={() => setOpen(false)}
        onSave={(rules, s) =>
          actions.add.mutate(
            {
              kind: 'segment',
              projectId,
              rules,
              rooms: s!.rooms,
              ...(s!.building ? { building: s!.building } : {}),
              ...(s!.maxPrice ? { maxPrice: s!.maxPrice } : {}),
              ...(s!.finish ? { finish: s!.finish } : {}),
            },
            {
              onSuccess: (w) => {
                setOpen(false);
                toast(`В избранном: ${w.label}`, 'success');
              },
              onError: (e) => toast(`Не получилось: ${(e as Error).message}`),
            },
          )
        }
      />
    </>
  );
}
