import type { ServiceDefinition } from '../mount.ts';

/** The licence service: device licences (activation keys) and, later, products, licences and subscriptions. */
export const licenseService: ServiceDefinition = {
  name: 'license',
  title: 'Edgeport licence service',
  routes: async (_app, _context) => {},
};
