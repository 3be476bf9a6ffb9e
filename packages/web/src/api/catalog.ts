import {
  developersResponseSchema,
  projectsResponseSchema,
  type StatsRequest,
  statsAnswerSchema,
} from '@cena-metra/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client';

export const getDevelopers = () => request(developersResponseSchema, { url: '/developers' });

export const developersQueryOptions = () =>
  queryOptions({ queryKey: ['developers'], queryFn: getDevelopers, staleTime: 5 * 60_000 });

export const useDevelopers = () => useQuery(developersQueryOptions());

export const getProjects = (developerId: number) =>
  request(projectsResponseSchema, { url: '/projects', params: { developerId } });

export const projectsQueryOptions = (developerId: number | null) =>
  queryOptions({
    queryKey: ['projects', developerId],
    queryFn: () => getProjects(developerId!),
    enabled: developerId !== null,
    staleTime: 5 * 60_000,
  });

export const useProjects = (developerId: number | null) => useQuery(projectsQueryOptions(developerId));

export const getProjectStats = (body: StatsRequest, signal?: AbortSignal) =>
  request(statsAnswerSchema, { url: '/project/stats', method: 'POST', data: body, signal });

export const projectStatsQueryOptions = (body: StatsRequest | null) =>
  queryOptions({
    queryKey: ['project-stats', body],
    queryFn: ({ signal }) => getProjectStats(body!, signal),
    enabled: body !== null,
    staleTime: 60_000,
    // another filter of the same project: its charts stay (dimmed) until the new data come, instead of
    // skeletons; the charts are then redrawn in place rather than made anew
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[1] as StatsRequest | null | undefined)?.projectId === body?.projectId
        ? previous
        : undefined,
  });

export const useProjectStats = (body: StatsRequest | null) => useQuery(projectStatsQueryOptions(body));
