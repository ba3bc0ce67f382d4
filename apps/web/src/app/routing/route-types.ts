import type { ScreenId } from '@edgeport/permissions';
import type { ComponentType } from 'react';

export type PageModule = { default: ComponentType };

/**
 * Who may open a route: anyone (spec 2: /login, /register), a signed-in user (the selector, agreements), or a
 * signed-in user inside an organization (everything in the shell).
 */
export type RouteAccess = 'public' | 'session' | 'organization';

/** One row of the route table; every `features/<area>/routes.ts` exports a list of these as `routes`. */
export type PortalRoute = {
  /** Absolute, as in spec 2: '/devices/groups', '/dashboards/:projectId/edit'. */
  path: string;
  access: RouteAccess;
  /** The screen of spec 6 whose requirement guards the route (permissions, IoT-only, VPN-only). */
  screen?: ScreenId;
  /** The page, loaded on demand. Absent: the screen is not built yet and the route resolves to the home redirect. */
  page?: () => Promise<PageModule>;
};

/**
 * Joins the declared product routes with the routes the features bring: a feature route with the same path replaces
 * the declaration (and keeps its guard when it names none).
 */
export function mergeRoutes(
  declared: readonly PortalRoute[],
  provided: readonly PortalRoute[],
): PortalRoute[] {
  const byPath = new Map<string, PortalRoute>();
  for (const route of declared) byPath.set(route.path, route);
  for (const route of provided) {
    const declaration = byPath.get(route.path);
    byPath.set(route.path, {
      ...route,
      ...(!route.screen && declaration?.screen && { screen: declaration.screen }),
    });
  }
  return [...byPath.values()];
}
