import {
  alertsReadResponseSchema,
  type WatchRequest,
  type WatchRules,
  watchesResponseSchema,
  watchSchema,
} from '@cena-metra/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestNothing } from '../lib/api-client';

export const useWatches = (enabled = true) =>
  useQuery({
    queryKey: ['watches'],
    queryFn: () => request(watchesResponseSchema, { url: '/watches' }),
    enabled,
  });

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
