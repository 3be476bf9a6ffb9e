import type { Watch } from '@cena-metra/contract';
import { mdiDelete, mdiHeartOutline, mdiPencil } from '@mdi/js';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useWatchActions, useWatches } from '../../api/watch';
import { ColumnTable } from '../../components/column-table';
import { DataState } from '../../components/states';
import { toast } from '../../components/toast';
import { Button, Card, Section, SectionTitle } from '../../components/ui';
import { WatchDialog } from '../../components/watch/watch-dialog';
import { actionsColumn, type Column } from '../../lib/columns';
import { useTitle } from '../../lib/use-title';
import { alertDay, alertText } from './alert-text';
import { useAlerts } from './api';

/** The rules of an item in words. */
function rulesText(w: Watch): string {
  const r = w.rules;
  return [
    r.price &&
      (r.minChangePercent === null ? 'цена' : `цена ≥ ${r.minChangePercent.toLocaleString('ru-RU')} %`),
    r.removed && 'снята',
    r.back && 'снова в продаже',
    w.kind === 'segment' && r.fresh && 'новые',
    r.promo && 'акции',
  ]
    .filter(Boolean)
    .join(', ');
}

const latestText = (w: Watch) =>
  w.latest ? `${alertDay(w.latest.day)}: ${alertText(w.latest, w.kind === 'segment')}` : 'изменений не было';

/** What the user watches: the item, its rules, its latest change and count, and its actions. */
function watchColumns(edit: (w: Watch) => void, remove: (w: Watch) => void): Column<Watch>[] {
  return [
    {
      key: 'what',
      label: 'Что',
      type: 'text',
      value: (w) => w.label,
      cell: (w) =>
        w.kind === 'flat' ? (
          <Link className="text-blue-600 hover:underline dark:text-blue-400" to={`/flat?flatId=${w.flatId}`}>
            {w.label}
          </Link>
        ) : (
          w.label
        ),
    },
    { key: 'rules', label: 'Сообщать', type: 'text', value: rulesText, className: () => 'text-sm' },
    {
      key: 'latest',
      label: 'Последнее изменение',
      type: 'text',
      value: latestText,
      className: () => 'text-sm',
      cell: (w) => <span data-testid="watch-latest">{latestText(w)}</span>,
    },
    { key: 'alerts', label: 'Всего', type: 'integer', value: (w) => w.alerts },
    actionsColumn((w) => (
      <>
        <Button small icon={mdiPencil} aria-label="Правила" onClick={() => edit(w)} />{' '}
        <Button
          small
          color="outline"
          icon={mdiDelete}
          aria-label="Не следить"
          data-testid="watch-remove"
          onClick={() => remove(w)}
        />
      </>
    )),
  ];
}

/** «Избранное»: what the user watches with its latest change, and the alerts, newest first. */
export function WatchlistPage() {
  useTitle('Избранное');
  const watches = useWatches();
  const alerts = useAlerts(200);
  const actions = useWatchActions();
  const [editing, setEditing] = useState<Watch | null>(null);
  const [params] = useSearchParams();
  const highlighted = Number(params.get('watch')) || null;
  // which watched item raised each alert (a flat and its segment may both tell of one change)
  const labels = new Map((watches.data ?? []).map((w) => [w.id, w.label]));
  return (
    <Section>
      <SectionTitle icon={mdiHeartOutline}>Избранное</SectionTitle>
      <p className="mb-6 max-w-3xl text-gray-600 dark:text-slate-300">
        Квартиры и сегменты, за которыми вы следите. После каждой загрузки прайс-листов изменения появляются
        здесь и под колокольчиком, а с привязанным Телеграмом — раз в день сообщением (привязка — в{' '}
        <Link to="/profile" className="text-blue-600 hover:underline dark:text-blue-400">
          профиле
        </Link>
        ).
      </p>
      <DataState
        loading={watches.isLoading}
        error={watches.error}
        empty={watches.data?.length === 0}
        emptyText="Пока ничего нет. Следите за квартирой из её карточки («Следить за квартирой») или за сегментом проекта с дашборда («Следить»)."
      >
        <div className="mb-6 overflow-x-auto rounded-2xl bg-white dark:bg-slate-900/70">
          <ColumnTable
            columns={watchColumns(setEditing, (w) =>
              actions.remove.mutate(w.id, {
                onSuccess: () => toast(`Больше не следим: ${w.label}`, 'success'),
                onError: (e) => toast(`Не получилось: ${(e as Error).message}`),
              }),
            )}
            rows={watches.data ?? []}
            rowKey={(w) => w.id}
            rowAttributes={(w) => ({ 'data-watch': String(w.id) })}
            rowClassName={(w) => (highlighted === w.id ? 'bg-amber-50 dark:bg-amber-900/20' : undefined)}
            testId="watch-table"
          />
        </div>
      </DataState>
      <Card
        title={
          <span className="flex items-center justify-between">
            Уведомления
            {(alerts.data?.unread ?? 0) > 0 && (
              <Button small data-testid="watchlist-read-all" onClick={() => actions.read.mutate(undefined)}>
                Прочитать все ({alerts.data?.unread})
              </Button>
            )}
          </span>
        }
      >
        <DataState
          loading={alerts.isLoading}
          error={alerts.error}
          empty={alerts.data?.alerts.length === 0}
          emptyText="Уведомлений пока нет: они появятся после загрузки прайс-листов, если что-то изменится."
        >
          <ul className="divide-y divide-gray-100 dark:divide-slate-800" data-testid="alert-list">
            {alerts.data?.alerts.map((a) => (
              <li
                key={a.id}
                className={`py-2 text-sm ${a.read ? 'text-gray-500 dark:text-slate-400' : 'font-medium'}`}
              >
                <span className="mr-2 text-gray-500 dark:text-slate-400">
                  {alertDay(a.day)} · {a.projectName}
                </span>
                <Link to={`/flat?flatId=${a.flatId}`} className="hover:text-blue-600">
                  {alertText(a, true)}
                </Link>
                {labels.has(a.watchId) && (
                  <span className="ml-2 text-gray-500 text-xs dark:text-slate-400">
                    ({labels.get(a.watchId)})
                  </span>
                )}
              </li>
            ))}
          </ul>
        </DataState>
      </Card>
      <WatchDialog
        open={editing !== null}
        title={editing ? `Правила: ${editing.label}` : ''}
        rules={
          editing?.rules ?? {
            price: true,
            minChangePercent: null,
            removed: true,
            back: true,
            fresh: false,
            promo: false,
          }
        }
        allowFresh={editing?.kind === 'segment'}
        busy={actions.update.isPending}
        onCancel={() => setEditing(null)}
        onSave={(rules) =>
          actions.update.mutate(
            {
              id: editing!.id,
              rules: { ...rules, fresh: editing!.kind === 'segment' ? rules.fresh : false },
            },
            {
              onSuccess: () => setEditing(null),
              onError: (e) => toast(`Не получилось: ${(e as Error).message}`),
            },
          )
        }
      />
    </Section>
  );
}
