import { createBrowserRouter, redirect, type RouteObject } from 'react-router';

import { locusDetailLoader } from '@/features/locus-detail/api/locus-loader';
import { locusListLoader } from '@/features/locus-list/api/loci-loader';
import { lookupFilter } from '@/lib/id-lookup';
import { lociPath } from '@/lib/locus-query';

import { adminOnly, loginRequired, sessionCheck } from './guards';
import { RootLayout } from './layout/RootLayout';
import { rootLoader, shouldRevalidateRoot } from './root-loader';
import type { RouteHandle } from './route-handle';
import { RouteError } from './RouteError';

/** Each screen is its own chunk: route modules export `Component` and are fetched on first visit. */
type PageModule = Promise<{ Component: React.ComponentType }>;
const page = (load: () => PageModule) => async () => ({ Component: (await load()).Component });

const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    loader: rootLoader,
    shouldRevalidate: shouldRevalidateRoot,
    HydrateFallback: () => null,
    children: [
      {
        // Pathless: page errors render inside the shell, so navigation stays usable.
        ErrorBoundary: RouteError,
        children: [
          { index: true, loader: () => redirect('/loci'), handle: { name: 'home' } },
          {
            path: 'loci',
            loader: locusListLoader,
            lazy: page(() => import('@/features/locus-list/components/LocusListPage')),
            handle: { name: 'locusList' },
          },
          {
            path: 'loci/lookup/:lookupQuery',
            handle: { name: 'lookupLoci' },
            // Also the top-bar lookup's target: an alert id needs a request to find its locus.
            loader: async ({ params, request }) =>
              redirect(lociPath([await lookupFilter((params.lookupQuery ?? '').trim(), request.signal)])),
          },
          {
            path: 'loci/:locusId',
            id: 'locusDetail',
            loader: locusDetailLoader,
            lazy: page(() => import('@/features/locus-detail/components/LocusDetailPage')),
            handle: { name: 'locusDetail', title: (data: unknown) => (data as { id?: string } | undefined)?.id } satisfies RouteHandle,
          },
          {
            path: 'favorite-loci',
            loader: sessionCheck,
            lazy: page(() => import('@/features/favorites/components/FavoritesPage')),
            handle: { name: 'favoriteLoci' },
          },
          {
            path: 'filters',
            loader: sessionCheck,
            lazy: page(() => import('@/features/filters/components/FilterListPage')),
            handle: { name: 'filterList' },
          },
          {
            path: 'filters/create',
            loader: loginRequired,
            lazy: page(() => import('@/features/filters/components/FilterCreatePage')),
            handle: { name: 'filterCreate' },
          },
          {
            // A static segment: ranked before filters/:filterId.
            path: 'filters/environment',
            lazy: page(() => import('@/features/filters/components/FilterEnvironmentPage')),
            handle: { name: 'filterEnvironment', title: 'Filter Environment' } satisfies RouteHandle,
          },
          {
            path: 'filters/:filterId',
            loader: loginRequired,
            lazy: page(() => import('@/features/filters/components/FilterDetailPage')),
            handle: { name: 'filterDetail' },
          },
          { path: 'pipeline', lazy: page(() => import('@/features/pipeline/components/PipelinePage')), handle: { name: 'pipeline' } },
          { path: 'register', lazy: page(() => import('@/features/auth/components/RegisterPage')), handle: { name: 'register' } },
          { path: 'login', lazy: page(() => import('@/features/auth/components/LoginPage')), handle: { name: 'login' } },
          {
            path: 'forgot-password',
            lazy: page(() => import('@/features/auth/components/ForgotPasswordPage')),
            handle: { name: 'forgotPassword' },
          },
          {
            path: 'properties',
            lazy: page(() => import('@/features/properties/components/PropertiesPage')),
            handle: { name: 'properties' },
          },
          {
            path: 'watch-lists',
            loader: sessionCheck,
            lazy: page(() => import('@/features/watch-lists/components/WatchListListPage')),
            handle: { name: 'watchListList' },
          },
          {
            path: 'watch-lists/create',
            loader: loginRequired,
            lazy: page(() => import('@/features/watch-lists/components/WatchListCreatePage')),
            handle: { name: 'watchListCreate' },
          },
          {
            path: 'watch-lists/:watchListId',
            loader: loginRequired,
            lazy: page(() => import('@/features/watch-lists/components/WatchListDetailPage')),
            handle: { name: 'watchListDetail' },
          },
          {
            path: 'user/settings',
            loader: loginRequired,
            lazy: page(() => import('@/features/auth/components/UserSettingsPage')),
            handle: { name: 'userSettings' },
          },
          {
            path: 'admin/filters',
            loader: adminOnly,
            lazy: page(() => import('@/features/filters/components/admin/AdminFilterListPage')),
            handle: { name: 'adminFilterList', title: 'Available Filters' },
          },
          {
            path: 'admin/filters/:filterId',
            loader: adminOnly,
            lazy: page(() => import('@/features/filters/components/admin/AdminFilterDetailPage')),
            handle: { name: 'adminFilterDetail', title: 'Filter detail (Admin view)' },
          },
          {
            path: 'admin/filter_runner',
            loader: adminOnly,
            lazy: page(() => import('@/features/filters/components/admin/FilterRunnerPage')),
            handle: { name: 'AdminFilterRunnerList', title: 'Available Filters in the Filter Runner' },
          },
          {
            path: 'admin/user-management',
            loader: adminOnly,
            lazy: page(() => import('@/features/admin/components/UserManagementPage')),
            handle: { name: 'userManagement', title: 'User Management' },
          },
          {
            path: 'admin/announcements',
            loader: adminOnly,
            lazy: page(() => import('@/features/admin/components/AnnouncementListPage')),
            handle: { name: 'announcementList', title: 'Announcements' },
          },
          {
            path: 'admin/announcements/create',
            loader: adminOnly,
            lazy: page(() => import('@/features/admin/components/AnnouncementCreatePage')),
            handle: { name: 'announcementCreate', title: 'New Announcement' },
          },
          { path: 'tags', lazy: page(() => import('@/features/tags/components/TagListPage')), handle: { name: 'tagList' } },
          {
            path: 'catalogs',
            lazy: page(() => import('@/features/catalogs/components/CatalogSamplesPage')),
            handle: { name: 'catalogSampleList' },
          },
          {
            path: 'gw-events',
            lazy: page(() => import('@/features/gw-events/components/GwEventListPage')),
            handle: { name: 'gwEventList', title: 'Gravitational Wave Events' },
          },
          {
            path: 'gw-events/:gracedbId',
            // Loader and page fetched together on first visit: the GW event API stays out of the shell's chunk.
            lazy: {
              loader: async () => (await import('@/features/gw-events/api/gw-events')).gwEventDetailLoader,
              Component: async () => (await import('@/features/gw-events/components/GwEventDetailPage')).Component,
            },
            handle: { name: 'gwEventDetail', title: (data: unknown) => (data as { id?: string } | undefined)?.id } satisfies RouteHandle,
          },
          { path: 'faq', lazy: page(() => import('@/app/faq')), handle: { name: 'faq' } },
          { path: 'support', lazy: page(() => import('@/features/support/components/SupportPage')), handle: { name: 'support' } },
          { path: 'team', lazy: page(() => import('@/features/team/components/TeamPage')), handle: { name: 'team', title: 'Our Team' } },
          { path: '*', lazy: page(() => import('./NotFoundPage')), handle: { name: 'notFound' } },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: '/' });
}
