import type { ServiceDefinition } from '../mount.ts';
import { applicationsRoutes } from './applications/routes.ts';
import { gatewaysRoutes } from './gateways/routes.ts';
import { infoRoutes } from './info/routes.ts';
import { sessionsRoutes } from './sessions/routes.ts';

/** The gateway/VPN service (spec 7): gateways, endpoints, applications, connections and tunnel sessions. */
export const vpn2Service: ServiceDefinition = {
  name: 'vpn2',
  title: 'Edgeport gateway and VPN service',
  routes: async (app, context) => {
    await app.register(gatewaysRoutes, context);
    await app.register(applicationsRoutes, context);
    await app.register(sessionsRoutes, context);
    await app.register(infoRoutes, context);
  },
};
