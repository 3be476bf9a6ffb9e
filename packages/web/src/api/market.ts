import {
  type CompareRequest,
  compareResponseSchema,
  type DiscountBasis,
  type DiscountPeriod,
  type DistributionRequest,
  discountProjectResponseSchema,
  discountResponseSchema,
  distributionResponseSchema,
  flatCardSchema,
  indexResponseSchema,
  type MarketPaceRequest,
  type MarketRequest,
  marketPaceResponseSchema,
  marketResponseSchema,
  offerSeriesResponseSchema,
  type PaceRequest,
  type PaceRowsRequest,
  type PriceChangesParams,
  paceResponseSchema,
  paceRowsResponseSchema,
  priceChangesResponseSchema,
  projectQualitySchema,
  type StatsRequest,
  summaryListSchema,
  summaryProjectSchema,
  summarySchema,
} from '@cena-metra/contract';
import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type AnswerSchema, request, requestFile } from '../lib/api-client';

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

/** The flat card: open through the summary path, or signed in through /flat. */
export const useFlatCard = (flatId: number | null, open: boolean) =>
  useQuery({
    queryKey: ['flat', flatId, open],
    queryFn: () =>
      open
        ? request(flatCardSchema, { url: `/summary/flat/${flatId}` })
        : request(flatCardSchema, { url: '/flat', params: { flatId } }),
    enabled: flatId !== null,
  });

export const usePriceChanges = (query: PriceChangesParams) =>
  useQuery({
    queryKey: ['price-changes', query],
    queryFn: ({ signal }) =>
      request(priceChangesResponseSchema, { url: '/price-changes', params: { ...query }, signal }),
    placeholderData: (previous) => previous,
  });

/** The CSV or Excel file of a filter: fetched with the bearer token (a plain link could not carry it). */
export async function getPriceChangesFile(query: PriceChangesParams, format: 'csv' | 'xlsx'): Promise<Blob> {
  const { page: _page, pageSize: _size, ...filters } = query;
  return requestFile(`/price-changes.${format}`, filters as Record<string, string | number | undefined>);
}

export const useProjectDiscounts = (body: {
  period: DiscountPeriod;
  basis?: DiscountBasis;
  developerId?: number;
}) =>
  useQuery({
    queryKey: ['discount-project', body],
    queryFn: () =>
      request(discountProjectResponseSchema, { url: '/discount/project', method: 'POST', data: body }),
  });

export const useFlatDiscounts = (
  body: { period: DiscountPeriod; basis?: DiscountBasis; projectId: number; limit: number } | null,
) =>
  useQuery({
    queryKey: ['discount', body],
    queryFn: () => request(discountResponseSchema, { url: '/discount', method: 'POST', data: body }),
    enabled: body !== null,
  });

/** The data quality report of a project (issue 14): gaps, partial scans, area changes, outliers, shares. */
export const useProjectQuality = (projectId: number | null) =>
  useQuery({
    queryKey: ['quality', projectId],
    queryFn: () => request(projectQualitySchema, { url: `/projects/${projectId}/quality` }),
    enabled: projectId !== null,
  });

// --- sales pace, the index, the market, the comparison (DESIGN §10.5–10.6) ---
const post = <T>(schema: AnswerSchema<T>, url: string, data: object, signal?: AbortSignal) =>
  request(schema, { url, method: 'POST', data, signal });

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

export const useMarket = (body: MarketRequest | null) =>
  useQuery({
    queryKey: ['market', body],
    queryFn: ({ signal }) => post(marketResponseSchema, '/market', body!, signal),
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

export const useCompare = (body: CompareRequest | null) =>
  useQuery({
    queryKey: ['compare', body],
    queryFn: ({ signal }) => post(compareResponseSchema, '/compare', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
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
export const useDistribution = (body: DistributionRequest) => useQuery(distributionQueryOptions(body));

/** Avg ppm by payment term of a project over a range (DESIGN §11.4); no terms: the dashboard shows no chart. */
export const useOfferSeries = (body: StatsRequest) =>
  useQuery({
    queryKey: ['offer-prices', body],
    staleTime: 60_000,
    queryFn: ({ signal }) => post(offerSeriesResponseSchema, '/project/offer-prices', body, signal),
  });
