import type { ServiceDefinition } from '../mount.ts';
import { accountRoutes } from './account/routes.ts';
import { agreementRoutes } from './agreements/routes.ts';
import { onboardingRoutes } from './onboarding/routes.ts';
import { organizationRoutes } from './organizations/routes.ts';
import { preferenceRoutes } from './preferences/routes.ts';
import { statusRoutes } from './status/routes.ts';

/** The core service: organizations, users and everything around a person's account. */
export const coreService: ServiceDefinition = {
  name: 'core',
  title: 'Edgeport core service',
  routes: async (app, context) => {
    for (const area of [
      organizationRoutes,
      onboardingRoutes,
      agreementRoutes,
      preferenceRoutes,
      accountRoutes,
      statusRoutes,
    ]) {
      await app.register(area, context);
    }
  },
};
