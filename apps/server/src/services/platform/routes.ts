import type { ServiceDefinition } from '../mount.ts';
import { dataRoutes } from './data/routes.ts';
import { platformDeviceRoutes } from './devices/routes.ts';
import { formulaRoutes } from './formula/routes.ts';
import { valueRoutes } from './values/routes.ts';

/** The platform service: device data tags, connection status, configuration, stored data and set-point writes. */
export const platformService: ServiceDefinition = {
  name: 'platform',
  title: 'Edgeport platform service',
  routes: async (app, context) => {
    for (const area of [platformDeviceRoutes, dataRoutes, valueRoutes, formulaRoutes])
      await app.register(area, context);
  },
};
