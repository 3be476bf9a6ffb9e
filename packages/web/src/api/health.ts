import { healthSchema } from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client';

/** Server facts the UI shows (database kind, latest data, the Telegram channel of the credits). */
export const useHealth = () =>
  useQuery({
    queryKey: ['health'],
    queryFn: () => request(healthSchema, { url: '/health' }),
    staleTime: 10 * 60_000,
  });
