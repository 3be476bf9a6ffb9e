import { searchResponseSchema } from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client';

/** Developers and projects matching a term (the header's search and the comparison's picker). */
export const useSearch = (term: string, enabled = true) =>
  useQuery({
    queryKey: ['search', term],
    queryFn: ({ signal }) => request(searchResponseSchema, { url: '/search', params: { q: term }, signal }),
    enabled: enabled && term.length > 0,
    staleTime: 30_000,
  });
