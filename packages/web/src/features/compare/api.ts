import { type CompareRequest, compareResponseSchema } from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { post } from '../../lib/api-client';

export const useCompare = (body: CompareRequest | null) =>
  useQuery({
    queryKey: ['compare', body],
    queryFn: ({ signal }) => post(compareResponseSchema, '/compare', body!, signal),
    enabled: body !== null,
    placeholderData: (previous) => previous,
  });
