import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { createBrowserRouter, Outlet, useLocation, useNavigate } from 'react-router';
import { InvitePage } from '../features/auth/invite-page';
import { LoginPage } from '../features/auth/login-page';
import { ProfilePage } from '../features/profile/profile-page';
import type { Need } from '../lib/access';
import { setUnauthorizedHandler } from '../lib/api-client';
import { loadable } from '../lib/loadable';
import { ErrorPage } from './error-page';
import { GuestOnly, RequireAuth, RequireRole } from './guards';
import { Layout } from './layout';

// Routes compose the features' pages. The dashboard (and ECharts with it) loads only when it is
// visited: /login stays light.
export const DashboardPage = loadable(() => import('../features/dashboard/dashboard-page'));
const UiPage = lazy(() => import('../features/samples/ui-page'));
const SummaryListPage = lazy(() =>
  import('../features/summaries/summary-pages').then((m) => ({ default: m.SummaryListPage })),
);
const SummaryDayPage = lazy(() =>
  import('../features/summaries/summary-pages').then((m) => ({ default: m.SummaryDayPage })),
);
const SummaryProjectPage = lazy(() =>
  import('../features/summaries/summary-pages').then((m) => ({ default: m.SummaryProjectPage })),
);
const SummaryFlatPage = lazy(() =>
  import('../features/flats/flat-pages').then((m) => ({ default: m.SummaryFlatPage })),
);
const FlatPage = lazy(() => import('../features/flats/flat-pages').then((m) => ({ default: m.FlatPage })));
const FormsPage = lazy(() =>
  import('../features/samples/template-pages').then((m) => ({ default: m.FormsPage })),
);
const ResponsivePage = lazy(() =>
  import('../features/samples/template-pages').then((m) => ({ default: m.ResponsivePage })),
);
const DiscountsPage = lazy(() =>
  import('../features/discounts/discounts-page').then((m) => ({ default: m.DiscountsPage })),
);
const PriceChangesPage = lazy(() =>
  import('../features/price-changes/price-changes-page').then((m) => ({ default: m.PriceChangesPage })),
);

const SourcesPage = lazy(() =>
  import('../features/sources/sources-page').then((m) => ({ default: m.SourcesPage })),
);
const MarketPage = lazy(() =>
  import('../features/market/market-page').then((m) => ({ default: m.MarketPage })),
);
const PipelinePage = lazy(() =>
  import('../features/pipeline/pipeline-page').then((m) => ({ default: m.PipelinePage })),
);
const ComparePage = lazy(() =>
  import('../features/compare/compare-page').then((m) => ({ default: m.ComparePage })),
);
const WatchlistPage = lazy(() =>
  import('../features/watch/watchlist-page').then((m) => ({ default: m.WatchlistPage })),
);
const ChessPage = lazy(() => import('../features/chess/chess-page').then((m) => ({ default: m.ChessPage })));
const UsersPage = lazy(() => import('../features/team/users-page').then((m) => ({ default: m.UsersPage })));
const AuditPage = lazy(() => import('../features/team/audit-page').then((m) => ({ default: m.AuditPage })));
const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

function PageLoading() {
  return (
    <div className="p-6 text-gray-500" aria-busy="true">
      Загрузка…
    </div>
  );
}

/** Scrolls to the top on navigation and sends a 401 back to /login with the wanted URL. */
function Root() {
  const location = useLocation();
  const navigate = useNavigate();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path is the trigger
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);
  useEffect(() => {
    setUnauthorizedHandler(() => {
      const wanted = `${window.location.pathname}${window.location.search}`;
      navigate(`/login?redirect=${encodeURIComponent(wanted)}`, { replace: true });
    });
  }, [navigate]);
  return <Outlet />;
}

/** A page for signed-in users; `need`: only for the roles that may (others see «нет доступа»). */
const authed = (page: ReactNode, need?: Need) => (
  <RequireAuth>
    <Layout>{need ? <RequireRole need={need}>{page}</RequireRole> : page}</Layout>
  </RequireAuth>
);
const open = (page: ReactNode) => <Layout>{page}</Layout>;

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      {
        path: '/',
        element: authed(
          <Suspense fallback={<PageLoading />}>
            <DashboardPage />
          </Suspense>,
        ),
      },
      { path: '/summary', element: open(lazyPage(<SummaryListPage />)) },
      { path: '/summary/:summaryId', element: open(lazyPage(<SummaryDayPage />)) },
      { path: '/summary/:summaryId/project/:projectId', element: open(lazyPage(<SummaryProjectPage />)) },
      { path: '/summary/flat/:flatId', element: open(lazyPage(<SummaryFlatPage />)) },
      { path: '/tables', element: authed(lazyPage(<PriceChangesPage />)) },
      { path: '/discounts-by-project', element: authed(lazyPage(<DiscountsPage />)) },
      { path: '/flat', element: authed(lazyPage(<FlatPage />)) },
      { path: '/sources', element: authed(lazyPage(<SourcesPage />), 'admin') },
      { path: '/users', element: authed(lazyPage(<UsersPage />), 'admin') },
      { path: '/audit', element: authed(lazyPage(<AuditPage />), 'admin') },
      { path: '/market', element: authed(lazyPage(<MarketPage />)) },
      { path: '/pipeline', element: authed(lazyPage(<PipelinePage />)) },
      { path: '/compare', element: authed(lazyPage(<ComparePage />)) },
      { path: '/chess', element: authed(lazyPage(<ChessPage />)) },
      { path: '/watchlist', element: authed(lazyPage(<WatchlistPage />), 'analyst') },
      { path: '/forms', element: authed(lazyPage(<FormsPage />)) },
      {
        path: '/ui',
        element: authed(
          <Suspense fallback={<PageLoading />}>
            <UiPage />
          </Suspense>,
        ),
      },
      { path: '/responsive', element: authed(lazyPage(<ResponsivePage />)) },
      { path: '/profile', element: authed(<ProfilePage />) },
      {
        path: '/invite/:token',
        element: (
          <GuestOnly>
            <InvitePage />
          </GuestOnly>
        ),
      },
      {
        path: '/login',
        element: (
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        ),
      },
      { path: '/error', element: <ErrorPage /> },
      { path: '*', element: <ErrorPage /> },
    ],
  },
]);
