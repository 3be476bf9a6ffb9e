import type { ReactNode } from 'react';

/** The full-screen gradient frame of the pages outside the layout (login, error). */
export function GuestFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-tr from-purple-400 via-pink-500 to-red-500 p-6 dark:from-slate-900 dark:via-slate-800 dark:to-slate-900">
      {children}
    </div>
  );
}
