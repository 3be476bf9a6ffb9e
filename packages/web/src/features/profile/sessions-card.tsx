import { DataState } from '../../components/states';
import { toast } from '../../components/toast';
import { Button, Card } from '../../components/ui';
import { dateTime, deviceName } from '../../lib/team-text';
import { useDeviceSessions } from './api';

/** The devices signed in as this user (DESIGN §11.5): device, address, last seen; any but this one ended. */
export function SessionsCard() {
  const { list, end } = useDeviceSessions();
  return (
    <Card title="Сеансы">
      <DataState loading={list.isLoading} error={list.error} empty={list.data?.length === 0}>
        <ul className="divide-y divide-gray-100 dark:divide-slate-800" data-testid="device-sessions">
          {list.data?.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-center justify-between gap-2 py-3"
              data-testid="device-session"
            >
              <div>
                <p className="font-semibold" title={s.device}>
                  {deviceName(s.device)}
                  {s.current && (
                    <span className="ml-2 font-normal text-emerald-700 text-sm">это устройство</span>
                  )}
                </p>
                <p className="text-gray-500 text-sm dark:text-slate-400">
                  {s.address ?? 'адрес неизвестен'} · был(а) {dateTime(s.lastSeenAt)} · вход{' '}
                  {dateTime(s.createdAt)}
                </p>
              </div>
              {!s.current && (
                <Button
                  small
                  color="outline"
                  disabled={end.isPending}
                  data-testid="device-session-end"
                  onClick={() =>
                    end.mutate(s.id, {
                      onSuccess: () => toast('Сеанс завершён'),
                      onError: (e) => toast(`Не получилось: ${(e as Error).message}`),
                    })
                  }
                >
                  Завершить
                </Button>
              )}
            </li>
          ))}
        </ul>
      </DataState>
    </Card>
  );
}
