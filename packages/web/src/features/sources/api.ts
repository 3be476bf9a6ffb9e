import {
  type SourceInput,
  sourceRunSchema,
  sourceRunsResponseSchema,
  sourceSchema,
  sourcesResponseSchema,
} from '@cena-metra/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestNothing } from '../../lib/api-client';

export const useSources = () =>
  useQuery({ queryKey: ['sources'], queryFn: () => request(sourcesResponseSchema, { url: '/sources' }) });

export const useSourceRuns = (id: number | null, live = false) =>
  useQuery({
    queryKey: ['sources', id, 'runs'],
    queryFn: () => request(sourceRunsResponseSchema, { url: `/sources/${id}/runs` }),
    enabled: id !== null,
    // while a collection runs: its record, asked again every second and a half, says how far it got
    refetchInterval: live ? 1500 : false,
  });

/** Add, change, remove, run now: each refreshes the list (and the runs) when done. */
export function useSourceActions() {
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: ['sources'] });
  return {
    add: useMutation({
      mutationFn: (data: SourceInput) => request(sourceSchema, { url: '/sources', method: 'POST', data }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, data }: { id: number; data: Partial<SourceInput> }) =>
        request(sourceSchema, { url: `/sources/${id}`, method: 'PATCH', data }),
      onSuccess: done,
    }),
    setEnabled: useMutation({
      mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
        request(sourceSchema, { url: `/sources/${id}`, method: 'PATCH', data: { enabled } }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => requestNothing({ url: `/sources/${id}`, method: 'DELETE' }),
      onSuccess: done,
    }),
    run: useMutation({
      mutationFn: (id: number) => request(sourceRunSchema, { url: `/sources/${id}/run`, method: 'POST' }),
      onSuccess: done,
    }),
  };
}
