import { type ReactNode, Suspense, useEffect } from 'react';
import { createBrowserRouter, matchRoutes, Outlet, useLocation, useNavigate } from 'react-router';
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
const UiPage = loadable(() => import('../features/samples/ui-page'));
const SummaryListPage = loadable(async () => ({
  default: (await import('../features/summaries/summary-pages')).SummaryListPage,
}));
const SummaryDayPage = loadable(async () => ({
  default: (await import('../features/summaries/summary-pages')).SummaryDayPage,
}));
const SummaryProjectPage = loadable(async () => ({
  default: (await import('../features/summaries/summary-pages')).SummaryProjectPage,
}));
const SummaryFlatPage = loadable(async () => ({
  default: (await import('../features/flats/flat-pages')).SummaryFlatPage,
}));
const FlatPage = loadable(async () => ({ default: (await import('../features/flats/flat-pages')).FlatPage }));
const FormsPage = loadable(async () => ({
  default: (await import('../features/samples/template-pages')).FormsPage,
}));
const ResponsivePage = loadable(async () => ({
  default: (await import('../features/samples/template-pages')).ResponsivePage,
}));
const DiscountsPage = loadable(async () => ({
  default: (await import('../features/discounts/discounts-page')).DiscountsPage,
}));
const PriceChangesPage = loadable(async () => ({
  default: (await import('../features/price-changes/price-changes-page')).PriceChangesPage,
}));

const SourcesPage = loadable(async () => ({
  default: (await import('../features/sources/sources-page')).SourcesPage,
}));
const MarketPage = loadable(async () => ({
  default: (await import('../features/market/market-page')).MarketPage,
}));
const PipelinePage = loadable(async () => ({
  default: (await import('../features/pipeline/pipeline-page')).PipelinePage,
}));
const ComparePage = loadable(async () => ({
  default: (await import('../features/compare/compare-page')).ComparePage,
}));
const WatchlistPage = loadable(async () => ({
  default: (await import('../features/watch/watchlist-page')).WatchlistPage,
}));
const ChessPage = loadable(async () => ({
  default: (await import('../features/chess/chess-page')).ChessPage,
}));
const UsersPage = loadable(async () => ({
  default: (await import('../features/team/users-page')).UsersPage,
}));
const AuditPage = loadable(async () => ({
  default: (await import('../features/team/audit-page')).AuditPage,
}));
const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

function PageLoading() {
  return (
    <div className="p-6 text-gray-500" aria-busy="true" data-testid="page-loading">
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
        handle: { page: DashboardPage },
        element: authed(lazyPage(<DashboardPage />)),
      },
      { path: '/summary', element: open(lazyPage(<SummaryListPage />)), handle: { page: SummaryListPage } },
      {
        path: '/summary/:summaryId',
        element: open(lazyPage(<SummaryDayPage />)),
        handle: { page: SummaryDayPage },
      },
      {
        path: '/summary/:summaryId/project/:projectId',
        element: open(lazyPage(<SummaryProjectPage />)),
        handle: { page: SummaryProjectPage },
      },
      {
        path: '/summary/flat/:flatId',
        element: open(lazyPage(<SummaryFlatPage />)),
        handle: { page: SummaryFlatPage },
      },
      {
        path: '/tables',
        element: authed(lazyPage(<PriceChangesPage />)),
        handle: { page: PriceChangesPage },
      },
      {
        path: '/discounts-by-project',
        element: authed(lazyPage(<DiscountsPage />)),
        handle: { page: DiscountsPage },
      },
      { path: '/flat', element: authed(lazyPage(<FlatPage />)), handle: { page: FlatPage } },
      {
        path: '/sources',
        element: authed(lazyPage(<SourcesPage />), 'admin'),
        handle: { page: SourcesPage },
      },
      { path: '/users', element: authed(lazyPage(<UsersPage />), 'admin'), handle: { page: UsersPage } },
      { path: '/audit', element: authed(lazyPage(<AuditPage />), 'admin'), handle: { page: AuditPage } },
      { path: '/market', element: authed(lazyPage(<MarketPage />)), handle: { page: MarketPage } },
      { path: '/pipeline', element: authed(lazyPage(<PipelinePage />)), handle: { page: PipelinePage } },
      { path: '/compare', element: authed(lazyPage(<ComparePage />)), handle: { page: ComparePage } },
      { path: '/chess', element: authed(lazyPage(<ChessPage />)), handle: { page: ChessPage } },
      {
        path: '/watchlist',
        element: authed(lazyPage(<WatchlistPage />), 'analyst'),
        handle: { page: WatchlistPage },
      },
      { path: '/forms', element: authed(lazyPage(<FormsPage />)), handle: { page: FormsPage } },
      {
        path: '/ui',
        handle: { page: UiPage },
        element: authed(lazyPage(<UiPage />)),
      },
      {
        path: '/responsive',
        element: authed(lazyPage(<ResponsivePage />)),
        handle: { page: ResponsivePage },
      },
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

/**
 * Loads the code of the page at `pathname` (its route's `handle.page`), so that a first load draws it when
 * its code is here, without a fallback between: React keeps a Suspense fallback up for at least 300 ms once
 * shown, and a page's requests leave only once it renders (main.tsx waits for this before the first render).
 */
export function preloadPage(pathname: string): Promise<unknown> {
  const match = matchRoutes(router.routes, pathname)?.at(-1);
  const page = (match?.route.handle as { page?: { preload(): Promise<unknown> } } | undefined)?.page;
  return page ? page.preload() : Promise.resolve();
}
