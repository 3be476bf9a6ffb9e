import { meSchema } from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from '../lib/api-client';
import { refreshSession, useSession } from '../lib/session';

/** Who is signed in, asked once a page is open: a role changed by an admin shows without signing in again. */
export function useMe() {
  const session = useSession();
  const me = useQuery({
    queryKey: ['me', session?.token],
    queryFn: () => request(meSchema, { url: '/auth/me' }),
    enabled: session !== null,
    staleTime: 60_000,
  });
  useEffect(() => {
    if (me.data) refreshSession(me.data);
  }, [me.data]);
  return me;
}
