import type { Place, ProjectPlacesResponse } from '@cena-metra/contract';
import {
  type BelowComparablesRequest,
  belowComparablesResponseSchema,
  type HedonicRequest,
  hedonicResponseSchema,
  type MarketMapRequest,
  type MarketPaceRequest,
  type MarketRequest,
  mapConfigResponseSchema,
  marketMapAnswerSchema,
  marketPaceResponseSchema,
  marketResponseSchema,
  projectPlacesResponseSchema,
  type RegistryMarketRequest,
  registryMarketResponseSchema,
  registryReliabilityResponseSchema,
} from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { post, request } from '../../lib/api-client';

export const useMarket = (body: MarketRequest | null) =>
  useQuery({
    queryKey: ['market', body],
    queryFn: ({ signal }) => post(marketResponseSchema, '/market', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });

/** «Рынок»'s map in columns (issue 46): the selection's placed projects, registry-only ones first. */
export const useMarketMap = (body: MarketMapRequest | null) =>
  useQuery({
    queryKey: ['market-map', body],
    queryFn: ({ signal }) => post(marketMapAnswerSchema, '/market/map', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });

export const useMarketPace = (body: MarketPaceRequest | null) =>
  useQuery({
    queryKey: ['market-pace', body],
    queryFn: ({ signal }) => post(marketPaceResponseSchema, '/market/pace', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });

/** The segment's hedonic index (DESIGN §12.4): prices net of mix. */
export const useHedonic = (body: HedonicRequest | null) =>
  useQuery({
    queryKey: ['market-hedonic', body],
    queryFn: ({ signal }) => post(hedonicResponseSchema, '/market/hedonic', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });

/** «Ниже аналогов» (DESIGN §12.4): flats priced below their peers. */
export const useBelowComparables = (body: BelowComparablesRequest | null) =>
  useQuery({
    queryKey: ['market-below', body],
    queryFn: ({ signal }) => post(belowComparablesResponseSchema, '/market/below-comparables', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });

/** The regions, cities, districts and stations of the market's projects (the market's filters). */
function placesById(data: ProjectPlacesResponse): Map<number, Place> {
  return new Map(data.projects.map(({ projectId, ...place }) => [projectId, place]));
}

/** Every project's place by id (the market's map, table and exports join it to their rows). */
export const useProjectPlaces = (enabled = true) =>
  useQuery({
    queryKey: ['places', 'projects'],
    queryFn: () => request(projectPlacesResponseSchema, { url: '/places/projects' }),
    enabled,
    staleTime: 5 * 60_000,
    select: placesById,
  });

/** «Надёжность сроков» of the developers with registry objects (DESIGN §12.3), by developer id. */
export const useReliability = (enabled: boolean) =>
  useQuery({
    queryKey: ['registry-reliability'],
    queryFn: ({ signal }) =>
      request(registryReliabilityResponseSchema, { url: '/registry/reliability', signal }),
    enabled,
    staleTime: 5 * 60_000,
    // each developer's figures with its group's (over every registry object of the group) beside
    select: (data) => {
      const groups = new Map(data.groups.map(({ group, ...r }) => [group, r]));
      return new Map(
        data.developers.map(({ developerId, ...r }) => [
          developerId,
          { ...r, groupReliability: r.group ? groups.get(r.group) : undefined },
        ]),
      );
    },
  });

/** Every registry project of the selection (DESIGN §12.3): ours with their registry figures, and those only
 *  in the registry. */
export const useRegistryMarket = (body: RegistryMarketRequest | null) =>
  useQuery({
    queryKey: ['registry-market', body],
    queryFn: ({ signal }) => post(registryMarketResponseSchema, '/registry/market', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });

/** What basemap «Рынок»'s map draws (issue 46): the server's setting, read once a session. */
export const useMapConfig = () =>
  useQuery({
    queryKey: ['map-config'],
    queryFn: ({ signal }) => request(mapConfigResponseSchema, { url: '/map/config', signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
