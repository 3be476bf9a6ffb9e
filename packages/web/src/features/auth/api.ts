import { inviteInfoSchema, sessionSchema } from '@cena-metra/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';

export const useInvite = (token: string) =>
  useQuery({
    queryKey: ['invite', token],
    queryFn: () => request(inviteInfoSchema, { url: `/auth/invite/${token}` }),
    retry: false,
  });

export const acceptInvite = (token: string, password: string) =>
  request(sessionSchema, { url: `/auth/invite/${token}`, method: 'POST', data: { password } });

/** Signs in: the session the server opened. */
export const logIn = (username: string, password: string) =>
  request(sessionSchema, { url: '/auth/login', method: 'POST', data: { username, password } });
