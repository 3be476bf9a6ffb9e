import { mdiBell, mdiBellOutline } from '@mdi/js';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useWatchActions } from '../../api/watch';
import { Dropdown } from '../../components/dropdown';
import { Icon } from '../../components/icon';
import { alertDay, alertText } from './alert-text';
import { useAlerts } from './api';

const BELL_DELAY_MS = 1500;

/** The navbar's bell: unread alerts as a badge, the latest ones in a dropdown, «прочитать все». */
export function AlertsBell() {
  // asked a moment after the page opens: the page's own data come first
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), BELL_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const alerts = useAlerts(10, ready);
  const actions = useWatchActions();
  const unread = alerts.data?.unread ?? 0;
  const list = alerts.data?.alerts ?? [];
  return (
    <Dropdown
      label={unread ? `Уведомления: ${unread} непрочитанных` : 'Уведомления'}
      trigger={
        <span className="relative inline-flex" data-testid="alerts-bell">
          <Icon path={unread ? mdiBell : mdiBellOutline} />
          {unread > 0 && (
            <span
              className="-top-2 -right-2 absolute min-w-[1.1rem] rounded-full bg-red-600 px-1 text-center font-bold text-[0.65rem] text-white leading-[1.1rem]"
              data-testid="alerts-unread"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          )}
          <span className="ml-2 lg:hidden">Уведомления</span>
        </span>
      }
    >
      <div className="w-80 max-w-[90vw]" data-testid="alerts-menu">
        {alerts.isLoading ? (
          <p className="px-4 py-2 text-gray-500 text-sm">Загрузка…</p>
        ) : list.length === 0 ? (
          <p className="px-4 py-2 text-gray-500 text-sm dark:text-slate-400">
            Уведомлений нет. Следите за квартирой из её карточки или за сегментом с дашборда.
          </p>
        ) : (
          <ul className="max-h-96 overflow-y-auto">
            {list.map((a) => (
              <li
                key={a.id}
                className={`px-4 py-2 text-sm ${a.read ? 'text-gray-500 dark:text-slate-400' : 'font-medium'}`}
              >
                <Link to={`/flat?flatId=${a.flatId}`} className="block hover:text-blue-600">
                  <span className="block text-gray-500 text-xs dark:text-slate-400">
                    {alertDay(a.day)} · {a.projectName}
                  </span>
                  {alertText(a, true)}
                </Link>
              </li>
            ))}
          </ul>
        )}
        <div className="flex items-center justify-between border-gray-100 border-t px-4 py-2 text-sm dark:border-slate-700">
          <Link to="/watchlist" className="text-blue-600 hover:underline dark:text-blue-400">
            Избранное
          </Link>
          {unread > 0 && (
            <button
              type="button"
              className="text-blue-600 hover:underline dark:text-blue-400"
              data-testid="alerts-read-all"
              onClick={() => actions.read.mutate(undefined)}
            >
              Прочитать все
            </button>
          )}
        </div>
      </div>
    </Dropdown>
  );
}
