import type { ServiceDefinition } from '../mount.ts';
import { assetsRoutes } from './assets/routes.ts';
import { dashboardsRoutes } from './dashboards/routes.ts';
import { galleryRoutes } from './gallery/routes.ts';
import { preferencesRoutes } from './preferences/routes.ts';

/** The dashboard service (spec 7 "Dashboard"): dashboards, flows and widgets with versions and sharing; assets. */
export const dashboardService: ServiceDefinition = {
  name: 'dashboard',
  title: 'Edgeport dashboard service',
  routes: async (app, context) => {
    await app.register(dashboardsRoutes, context);
    await app.register(assetsRoutes, context);
    await app.register(galleryRoutes, context);
    await app.register(preferencesRoutes, context);
  },
};
