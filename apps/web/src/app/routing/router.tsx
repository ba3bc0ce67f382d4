import { createHashRouter, type RouteObject, redirect } from 'react-router';
import { RouteError } from '../../features/errors/RouteError.tsx';
import { RootLayout } from '../RootLayout.tsx';
import { SessionLayout } from '../SessionLayout.tsx';
import { FullPageLoader } from '../shell/FullPageLoader.tsx';
import { ShellLayout } from '../shell/ShellLayout.tsx';
import { homeLoader, requireOrganization, requireSession, screenLoader } from './guards.ts';
import { ROUTE_TABLE } from './route-table.ts';
import type { PortalRoute } from './route-types.ts';

// React Router nests relative paths; '*' stays as is.
function relative(path: string): string {
  return path.startsWith('/') ? path.slice(1) : path;
}

function lazyPage(route: PortalRoute): Pick<RouteObject, 'lazy'> {
  const page = route.page;
  return page ? { lazy: async () => ({ Component: (await page()).default }) } : {};
}

function routeObject(route: PortalRoute, loader: RouteObject['loader']): RouteObject {
  return { path: relative(route.path), loader, ...lazyPage(route) };
}

function withAccess(access: PortalRoute['access']): PortalRoute[] {
  // The catch-all goes last so it never shadows a real route.
  return ROUTE_TABLE.filter((route) => route.access === access).sort(
    (a, b) => Number(a.path === '*') - Number(b.path === '*'),
  );
}

export function portalRoutes(): RouteObject[] {
  return [
    {
      element: <RootLayout />,
      errorElement: <RouteError />,
      HydrateFallback: FullPageLoader,
      children: [
        { index: true, loader: () => redirect('/home') },
        ...withAccess('public').map((route) => routeObject(route, undefined)),
        {
          element: <SessionLayout />,
          loader: async ({ request }) => {
            await requireSession(request);
            return null;
          },
          children: [
            ...withAccess('session').map((route) =>
              routeObject(route, async ({ request }) => {
                await requireSession(request);
                return null;
              }),
            ),
            {
              element: <ShellLayout routes={ROUTE_TABLE} />,
              loader: async ({ request }) => {
                await requireOrganization(request);
                return null;
              },
              children: [
                { path: 'home', loader: homeLoader(ROUTE_TABLE) },
                ...withAccess('organization').map((route) => routeObject(route, screenLoader(route))),
              ],
            },
          ],
        },
      ],
    },
  ];
}

export function createPortalRouter() {
  return createHashRouter(portalRoutes());
}
