import { summaryListSchema, summaryProjectSchema, summarySchema } from '@cena-metra/contract';
import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';

export const SUMMARIES_PAGE = 10;

/** Daily summaries, newest first, a page at a time (`before` = the oldest date shown so far). */
export const useSummaries = () =>
  useInfiniteQuery({
    queryKey: ['summaries'],
    queryFn: ({ pageParam }) =>
      request(summaryListSchema, { url: '/summaries', params: { limit: SUMMARIES_PAGE, before: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.length < SUMMARIES_PAGE ? undefined : last[last.length - 1].date),
  });

export const summaryQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['summary', id],
    queryFn: () => request(summarySchema, { url: `/summary/${id}` }),
  });

export const useSummary = (id: number | null) =>
  useQuery({ ...summaryQueryOptions(id ?? 0), enabled: id !== null });

export const useSummaryProject = (id: number, projectId: number) =>
  useQuery({
    queryKey: ['summary', id, 'project', projectId],
    queryFn: () => request(summaryProjectSchema, { url: `/summary/${id}/project/${projectId}` }),
  });
