import '@fontsource/nunito/400.css';
import '@fontsource/nunito/600.css';
import '@fontsource/nunito/700.css';
import '@fontsource/nunito/900.css';
import './styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { preloadPage, router } from './app/router';
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

// a first load: the page's code fetched beside the app's own and the app drawn when it is here (the page then
// renders without a fallback between and sends its requests at once); a signed-in dashboard's data fetched
// with its code, not after it
if (window.location.pathname === '/' && sessionStore.get())
  void prefetchDashboard(queryClient, new URLSearchParams(window.location.search));
preloadPage(window.location.pathname).then(render, render);
