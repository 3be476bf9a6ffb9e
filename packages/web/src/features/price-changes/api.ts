import { type PriceChangesParams, priceChangesResponseSchema } from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { request, requestFile } from '../../lib/api-client';

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
