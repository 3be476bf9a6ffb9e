import { chessResponseSchema } from '@cena-metra/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';

/** A building's chessboard on a day (DESIGN §10.7); the board shown stays while the next one comes. */
export const useChess = (q: { projectId: number | null; building?: string; date?: string; since?: string }) =>
  useQuery({
    queryKey: ['chess', q.projectId, q.building, q.date, q.since],
    queryFn: ({ signal }) => request(chessResponseSchema, { url: '/chess', params: q, signal }),
    enabled: q.projectId !== null,
    placeholderData: keepPreviousData,
  });
