import { deviceSessionsSchema, telegramLinkSchema } from '@cena-metra/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestNothing } from '../../lib/api-client';

export const useTelegramLink = () =>
  useQuery({
    queryKey: ['telegram-link'],
    queryFn: () => request(telegramLinkSchema, { url: '/profile/telegram' }),
  });

export function useTelegramLinkActions() {
  const client = useQueryClient();
  return {
    code: useMutation({
      mutationFn: () => request(telegramLinkSchema, { url: '/profile/telegram', method: 'POST' }),
    }),
    unlink: useMutation({
      mutationFn: () => requestNothing({ url: '/profile/telegram', method: 'DELETE' }),
      onSuccess: () => client.invalidateQueries({ queryKey: ['telegram-link'] }),
    }),
  };
}

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

/** Changes the signed-in user's password (their other sessions end). */
export const changePassword = (currentPassword: string, newPassword: string) =>
  requestNothing({ url: '/auth/password', method: 'POST', data: { currentPassword, newPassword } });
