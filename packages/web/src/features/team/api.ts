import {
  type AuditQuery,
  auditPageSchema,
  type UserCreate,
  type UserPatch,
  userCreatedSchema,
  userSchema,
  usersResponseSchema,
} from '@cena-metra/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestFile, requestNothing } from '../../lib/api-client';

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

/** The log's entries under the page's filters as a CSV file. */
export const auditCsv = (q: Partial<AuditQuery>) => requestFile('/audit.csv', auditParams(q));
