import '@fontsource/nunito/400.css';
import '@fontsource/nunito/600.css';
import '@fontsource/nunito/700.css';
import '@fontsource/nunito/900.css';
import './styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { DashboardPage, router } from './app/router';
import { Toaster } from './components/toast';
import { prefetchDashboard } from './features/dashboard/prefetch';
import { ApiError } from './lib/api-client';
import { sessionStore } from './lib/session';
import { applyTelegramTheme } from './lib/telegram';

// inside Telegram the app takes the chat's theme (before the first paint)
applyTelegramTheme();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // a 4xx will not get better by asking again
      retry: (count, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  );

// a signed-in first load of the dashboard: its code and its data are fetched at once, not one after the
// other, and the app is drawn when the code is here (the page then renders without a fallback between)
if (window.location.pathname === '/' && sessionStore.get()) {
  void prefetchDashboard(queryClient, new URLSearchParams(window.location.search));
  DashboardPage.preload().then(render, render);
} else render();
