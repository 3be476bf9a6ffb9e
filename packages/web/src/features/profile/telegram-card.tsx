import { mdiSend } from '@mdi/js';
import { DataState } from '../../components/states';
import { toast } from '../../components/toast';
import { Button, Card } from '../../components/ui';
import { useTelegramLink, useTelegramLinkActions } from './api';

/**
 * The Telegram link of the account: a one-time code to send the bot as `/start <code>` (15 minutes,
 * once), after which the day's changes of «Избранное» come as one message a day.
 */
export function TelegramCard() {
  const link = useTelegramLink();
  const actions = useTelegramLinkActions();
  const made = actions.code.data;
  const bot = made?.botUsername ?? link.data?.botUsername ?? null;
  return (
    <Card title="Телеграм">
      <DataState loading={link.isLoading} error={link.error}>
        <p className="mb-4 text-sm" data-testid="telegram-status">
          {link.data?.linked
            ? 'Чат привязан: изменения избранного приходят раз в день одним сообщением.'
            : 'Чат не привязан. Привяжите его, чтобы получать изменения избранного в Телеграме раз в день.'}
        </p>
        {made?.code && (
          <div
            className="mb-4 rounded-lg bg-gray-50 p-4 text-sm dark:bg-slate-800"
            data-testid="telegram-code-box"
          >
            Отправьте боту{bot ? ` @${bot}` : ''} команду
            <code
              className="mx-1 rounded bg-white px-2 py-1 font-mono text-base dark:bg-slate-900"
              data-testid="telegram-code"
            >
              /start {made.code}
            </code>
            — код действует до{' '}
            {new Date(made.expiresAt!).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' })} и
            только один раз.
            {bot && (
              <a
                className="mt-2 block text-blue-600 hover:underline dark:text-blue-400"
                href={`https://t.me/${bot}?start=${made.code}`}
                target="_blank"
                rel="noreferrer"
              >
                Открыть бота в Телеграме
              </a>
            )}
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            icon={mdiSend}
            color="info"
            data-testid="telegram-code-button"
            disabled={actions.code.isPending}
            onClick={() => actions.code.mutate(undefined, { onError: (e) => toast((e as Error).message) })}
          >
            {link.data?.linked ? 'Привязать другой чат' : 'Получить код'}
          </Button>
          {link.data?.linked && (
            <Button
              color="outline"
              data-testid="telegram-unlink"
              onClick={() =>
                actions.unlink.mutate(undefined, { onError: (e) => toast((e as Error).message) })
              }
            >
              Отвязать
            </Button>
          )}
        </div>
      </DataState>
    </Card>
  );
}
