import type { ReactNode } from 'react';
import { Card, Skeleton } from './ui';

/** Loading, error and empty states of a data panel, in one place for every page. */
export function DataState({
  loading,
  error,
  empty,
  emptyText = 'Нет данных',
  children,
}: {
  loading: boolean;
  error: Error | null;
  empty?: boolean;
  emptyText?: string;
  children: ReactNode;
}) {
  if (loading)
    return (
      <div data-testid="loading" aria-busy="true">
        <Skeleton className="mb-3 h-10" />
        <Skeleton className="h-40" />
      </div>
    );
  if (error)
    return (
      <p role="alert" data-testid="error-state" className="rounded-lg bg-red-600 px-4 py-3 text-white">
        {error.message}
      </p>
    );
  if (empty)
    return (
      <p
        data-testid="empty-state"
        className="rounded-2xl bg-white p-10 text-center text-gray-500 dark:bg-slate-900/70 dark:text-slate-400"
      >
        {emptyText}
      </p>
    );
  return children;
}

/** What a page says when its address holds no valid id. */
export function BadAddress() {
  return (
    <Card>
      <p role="alert">Неверный адрес страницы.</p>
    </Card>
  );
}
