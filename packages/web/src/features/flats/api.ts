import { flatCardSchema } from '@cena-metra/contract';
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
