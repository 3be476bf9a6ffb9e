import { developersResponseSchema, placesResponseSchema, projectsResponseSchema } from '@cena-metra/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client';

const getDevelopers = () => request(developersResponseSchema, { url: '/developers' });

export const developersQueryOptions = () =>
  queryOptions({ queryKey: ['developers'], queryFn: getDevelopers, staleTime: 5 * 60_000 });

export const useDevelopers = () => useQuery(developersQueryOptions());

const getProjects = (developerId: number) =>
  request(projectsResponseSchema, { url: '/projects', params: { developerId } });

export const projectsQueryOptions = (developerId: number | null) =>
  queryOptions({
    queryKey: ['projects', developerId],
    queryFn: () => getProjects(developerId!),
    enabled: developerId !== null,
    staleTime: 5 * 60_000,
  });

export const useProjects = (developerId: number | null) => useQuery(projectsQueryOptions(developerId));

/** The places of the projects with data: regions, cities, districts, stations (DESIGN §11.3). */
export const usePlaces = () =>
  useQuery({
    queryKey: ['places'],
    queryFn: () => request(placesResponseSchema, { url: '/places' }),
    staleTime: 5 * 60_000,
  });
