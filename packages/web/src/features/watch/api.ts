import { alertsResponseSchema } from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import { useSession } from '../../lib/session';

/** How often the bell asks for new alerts (they come after imports, a few times a day). */
const ALERTS_POLL_MS = 60_000;

/** The signed-in user's alerts (the bell and «Избранное»), polled while the page is open. */
export const useAlerts = (limit = 20, enabled = true) => {
  const session = useSession();
  return useQuery({
    queryKey: ['alerts', limit],
    queryFn: () => request(alertsResponseSchema, { url: '/alerts', params: { limit } }),
    enabled: session !== null && enabled,
    refetchInterval: ALERTS_POLL_MS,
  });
};
