import { fairResponseSchema, flatCardSchema } from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';

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

/** The flat's fair price and comparables (DESIGN §12.4): for a flat on sale, signed in. */
export const useFlatFair = (flatId: number, enabled: boolean) =>
  useQuery({
    queryKey: ['flat-fair', flatId],
    queryFn: () => request(fairResponseSchema, { url: '/flat/fair', params: { flatId } }),
    enabled,
    retry: false,
  });
