import {
  alertsReadResponseSchema,
  alertsResponseSchema,
  telegramLinkSchema,
  type WatchRequest,
  type WatchRules,
  watchesResponseSchema,
  watchSchema,
} from '@cena-metra/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestNothing } from '../lib/api-client';
import { useSession } from '../lib/session';

/** How often the bell asks for new alerts (they come after imports, a few times a day). */
const ALERTS_POLL_MS = 60_000;

export const useWatches = (enabled = true) =>
  useQuery({
    queryKey: ['watches'],
    queryFn: () => request(watchesResponseSchema, { url: '/watches' }),
    enabled,
  });

/** The signed-in user's alerts (the bell and «Избранное»), polled while the page is open. */
export const useAlerts = (limit = 20, enabled = true) => {
  const session = useSession();
  return useQuery({
    queryKey: ['alerts', limit],
    queryFn: () => request(alertsResponseSchema, { url: '/alerts', params: { limit } }),
    enabled: session !== null && enabled,
    refetchInterval: ALERTS_POLL_MS,
  });
};

/** Watch, change the rules, stop watching, mark alerts read: each refreshes the lists when done. */
export function useWatchActions() {
  const client = useQueryClient();
  const done = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['watches'] }),
      client.invalidateQueries({ queryKey: ['alerts'] }),
    ]);
  return {
    add: useMutation({
      mutationFn: (data: WatchRequest) => request(watchSchema, { url: '/watches', method: 'POST', data }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, rules }: { id: number; rules: WatchRules }) =>
        request(watchSchema, { url: `/watches/${id}`, method: 'PATCH', data: { rules } }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => requestNothing({ url: `/watches/${id}`, method: 'DELETE' }),
      onSuccess: done,
    }),
    read: useMutation({
      mutationFn: (ids?: number[]) =>
        request(alertsReadResponseSchema, { url: '/alerts/read', method: 'POST', data: ids ? { ids } : {} }),
      onSuccess: done,
    }),
  };
}

export const useTelegramLink = () =>
  useQuery({
    queryKey: ['telegram-link'],
    queryFn: () => request(telegramLinkSchema, { url: '/profile/telegram' }),
  });

export function useTelegramLinkActions() {
  const client = useQueryClient();
  return {
    code: useMutation({
      mutationFn: () => request(telegramLinkSchema, { url: '/profile/telegram', method: 'POST' }),
    }),
    unlink: useMutation({
      mutationFn: () => requestNothing({ url: '/profile/telegram', method: 'DELETE' }),
      onSuccess: () => client.invalidateQueries({ queryKey: ['telegram-link'] }),
    }),
  };
}
