import {
  type AuditQuery,
  auditPageSchema,
  deviceSessionsSchema,
  inviteInfoSchema,
  meSchema,
  sessionSchema,
  type UserCreate,
  type UserPatch,
  userCreatedSchema,
  userSchema,
  usersResponseSchema,
} from '@cena-metra/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request, requestNothing } from '../lib/api-client';
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

export const useUsers = () =>
  useQuery({ queryKey: ['users'], queryFn: () => request(usersResponseSchema, { url: '/users' }) });

/** Create, change (role, disabled), end sessions: each refreshes the list. */
export function useUserActions() {
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: ['users'] });
  return {
    create: useMutation({
      mutationFn: (data: UserCreate) => request(userCreatedSchema, { url: '/users', method: 'POST', data }),
      onSuccess: done,
    }),
    change: useMutation({
      mutationFn: ({ id, patch }: { id: number; patch: UserPatch }) =>
        request(userSchema, { url: `/users/${id}`, method: 'PATCH', data: patch }),
      onSuccess: done,
    }),
    invite: useMutation({
      mutationFn: (id: number) => request(userCreatedSchema, { url: `/users/${id}/invite`, method: 'POST' }),
      onSuccess: done,
    }),
    endSessions: useMutation({
      mutationFn: (id: number) => requestNothing({ url: `/users/${id}/sessions`, method: 'DELETE' }),
      onSuccess: done,
    }),
  };
}

export const useInvite = (token: string) =>
  useQuery({
    queryKey: ['invite', token],
    queryFn: () => request(inviteInfoSchema, { url: `/auth/invite/${token}` }),
    retry: false,
  });

export const acceptInvite = (token: string, password: string) =>
  request(sessionSchema, { url: `/auth/invite/${token}`, method: 'POST', data: { password } });

export function useDeviceSessions() {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['device-sessions'],
    queryFn: () => request(deviceSessionsSchema, { url: '/auth/sessions' }),
  });
  const end = useMutation({
    mutationFn: (id: number) => requestNothing({ url: `/auth/sessions/${id}`, method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['device-sessions'] }),
  });
  return { list, end };
}

/** The filters of the audit log as the API reads them (empty ones left out). */
export const auditParams = (q: Partial<AuditQuery>) =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number
  >;

export const useAudit = (q: AuditQuery) =>
  useQuery({
    queryKey: ['audit', q],
    queryFn: () => request(auditPageSchema, { url: '/audit', params: auditParams(q) }),
    placeholderData: keepPreviousData,
  });
