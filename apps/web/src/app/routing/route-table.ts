import { PRODUCT_ROUTES } from './product-routes.ts';
import { mergeRoutes, type PortalRoute } from './route-types.ts';

const featureModules = import.meta.glob<{ routes: PortalRoute[] }>('../../features/*/routes.ts', {
  eager: true,
});

/** Every route of spec 2: the declared product screens, replaced by the pages features bring. */
export const ROUTE_TABLE: readonly PortalRoute[] = mergeRoutes(
  PRODUCT_ROUTES,
  Object.values(featureModules).flatMap((module) => module.routes),
);
