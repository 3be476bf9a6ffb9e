import {
  type DistributionRequest,
  distributionResponseSchema,
  healthSchema,
  indexResponseSchema,
  offerSeriesResponseSchema,
  type PaceRequest,
  type PaceRowsRequest,
  type PlaceEdit,
  type PriceClass,
  paceResponseSchema,
  paceRowsResponseSchema,
  projectClassSchema,
  projectPlaceSchema,
  projectQualitySchema,
  registryCandidatesResponseSchema,
  registryLinkResponseSchema,
  registryObjectsResponseSchema,
  type StatsRequest,
  statsColumnsAnswerSchema,
} from '@cena-metra/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { post, request } from '../../lib/api-client';
import { whenIdle } from '../../lib/idle';

/** The project's stats in columns (§12.2): the web's own form of `/project/stats`, a third of its size. */
export const getProjectStats = (body: StatsRequest, signal?: AbortSignal) =>
  request(statsColumnsAnswerSchema, { url: '/project/stats/columns', method: 'POST', data: body, signal });

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

/**
 * The stats of the other status («только свободные» on or off) of those shown, asked for once the browser
 * is idle after they have come: the dashboard's most frequent switch then redraws from data at hand instead
 * of waiting for the server (issue 43). One request a project and range, under the key the page then uses,
 * sent when none of the page's own is in flight.
 */
export function usePrefetchOtherStatus(body: StatsRequest | null, shown: boolean) {
  const client = useQueryClient();
  const key = body && shown ? JSON.stringify(body) : null;
  useEffect(() => {
    if (!key) return;
    const shownBody = JSON.parse(key) as StatsRequest;
    const other: StatsRequest = {
      ...shownBody,
      status: shownBody.status === 'AVAILABLE' ? 'ALL' : 'AVAILABLE',
    };
    // after the page's own requests (the blocks scrolled to): not their rival on the server
    const ahead = () => {
      if (client.isFetching() > 0) cancel = whenIdle(ahead, 3_000);
      else void client.prefetchQuery(projectStatsQueryOptions(other));
    };
    let cancel = whenIdle(ahead, 3_000);
    return () => cancel();
  }, [client, key]);
}

/** Server facts the UI shows (database kind, latest data, the Telegram channel of the credits). */
export const useHealth = () =>
  useQuery({
    queryKey: ['health'],
    queryFn: () => request(healthSchema, { url: '/health' }),
    staleTime: 10 * 60_000,
  });

/** The data quality report of a project (issue 14): gaps, partial scans, area changes, outliers, shares. */
export const useProjectQuality = (projectId: number | null) =>
  useQuery({
    queryKey: ['quality', projectId],
    queryFn: () => request(projectQualitySchema, { url: `/projects/${projectId}/quality` }),
    enabled: projectId !== null,
  });

export const projectPaceQueryOptions = (body: PaceRequest | null) =>
  queryOptions({
    queryKey: ['pace', body],
    // derived from the same lists as the stats: as fresh as they are (catalog's stats keep 60 s too)
    staleTime: 60_000,
    queryFn: ({ signal }) => post(paceResponseSchema, '/project/pace', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });

export const useProjectPace = (body: PaceRequest | null) => useQuery(projectPaceQueryOptions(body));

export const useProjectIndex = (body: { projectId: number; from: string; to: string } | null) =>
  useQuery({
    queryKey: ['index', body],
    queryFn: ({ signal }) => post(indexResponseSchema, '/project/index', body!, signal),
    enabled: body !== null,
  });

export const paceRowsQueryOptions = (body: PaceRowsRequest | null) =>
  queryOptions({
    queryKey: ['pace-rows', body],
    staleTime: 60_000,
    queryFn: ({ signal }) => post(paceRowsResponseSchema, '/project/pace/rows', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });

export const usePaceRows = (body: PaceRowsRequest | null) => useQuery(paceRowsQueryOptions(body));

export const distributionQueryOptions = (body: DistributionRequest) =>
  queryOptions({
    queryKey: ['distribution', body],
    staleTime: 60_000,
    queryFn: ({ signal }) => post(distributionResponseSchema, '/project/distribution', body, signal),
    placeholderData: (previous) => previous,
  });

export const useDistribution = (body: DistributionRequest | null) =>
  useQuery({ ...distributionQueryOptions(body!), enabled: body !== null });

/** Avg ppm by payment term of a project over a range (DESIGN §11.4); no terms: the dashboard shows no chart. */
export const useOfferSeries = (body: StatsRequest | null) =>
  useQuery({
    queryKey: ['offer-prices', body],
    staleTime: 60_000,
    queryFn: ({ signal }) => post(offerSeriesResponseSchema, '/project/offer-prices', body!, signal),
    enabled: body !== null,
  });

/** A stable function, so the query makes the map once per answer, not on every render of the page. */
/** A project's place (DESIGN §11.3), and its hand edit. */
export function useProjectPlace(projectId: number | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['project-place', projectId],
    queryFn: () => request(projectPlaceSchema, { url: `/projects/${projectId}/place` }),
    enabled: projectId !== null,
  });
  const edit = useMutation({
    mutationFn: (change: PlaceEdit) =>
      request(projectPlaceSchema, { url: `/projects/${projectId}/place`, method: 'PUT', data: change }),
    onSuccess: (place) => {
      client.setQueryData(['project-place', projectId], place);
      // the market's places and rankings change with it
      void client.invalidateQueries({ queryKey: ['places'] });
      void client.invalidateQueries({ queryKey: ['market'] });
    },
  });
  return { query, edit };
}

/** A project's registry objects (DESIGN §12.3): dates and their shifts, sold share, registered sales. */
export const useRegistryObjects = (projectId: number | null) =>
  useQuery({
    queryKey: ['registry-objects', projectId],
    queryFn: ({ signal }) =>
      request(registryObjectsResponseSchema, { url: `/registry/objects?projectId=${projectId}`, signal }),
    enabled: projectId !== null,
    staleTime: 60_000,
  });

/**
 * A hand link of a registry object (admins, DESIGN §12.3): to a project, or (null) unlinked so it stays a
 * project of its own; `back` takes the hand decision back (the rule decides again).
 */
export function useRegistryLink() {
  const client = useQueryClient();
  // a link moves the object's figures, the project's class by the registry and the market's rows
  const done = () => {
    for (const key of [
      'registry-objects',
      'registry-candidates',
      'project-class',
      'market',
      'registry-market',
    ])
      void client.invalidateQueries({ queryKey: [key] });
  };
  const link = useMutation({
    mutationFn: ({ objId, projectId }: { objId: number; projectId: number | null }) =>
      request(registryLinkResponseSchema, {
        url: `/registry/objects/${objId}/link`,
        method: 'PUT',
        data: { projectId },
      }),
    onSuccess: done,
  });
  const back = useMutation({
    mutationFn: (objId: number) =>
      request(registryLinkResponseSchema, { url: `/registry/objects/${objId}/link`, method: 'DELETE' }),
    onSuccess: done,
  });
  return { link, back };
}

/** A project's class on «Рынок» and its origin (DESIGN §12.3); admins set it by hand or give it back. */
export function useProjectClass(projectId: number | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['project-class', projectId],
    queryFn: ({ signal }) => request(projectClassSchema, { url: `/projects/${projectId}/class`, signal }),
    enabled: projectId !== null,
  });
  const edit = useMutation({
    mutationFn: (priceClass: PriceClass | null) =>
      request(projectClassSchema, {
        url: `/projects/${projectId}/class`,
        method: 'PUT',
        data: { priceClass },
      }),
    onSuccess: (cls) => {
      client.setQueryData(['project-class', projectId], cls);
      void client.invalidateQueries({ queryKey: ['market'] });
    },
  });
  return { query, edit };
}

/** The registry-only objects an admin may link to the project: its ЖК name anywhere, or within 10 km. */
export const useRegistryCandidates = (projectId: number | null) =>
  useQuery({
    queryKey: ['registry-candidates', projectId],
    queryFn: ({ signal }) =>
      request(registryCandidatesResponseSchema, {
        url: `/registry/candidates?projectId=${projectId}`,
        signal,
      }),
    enabled: projectId !== null,
  });
