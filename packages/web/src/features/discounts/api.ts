import {
  type DiscountBasis,
  type DiscountPeriod,
  discountProjectResponseSchema,
  discountResponseSchema,
} from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';

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
