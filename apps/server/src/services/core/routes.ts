import type { ServiceDefinition } from '../mount.ts';
import { accountRoutes } from './account/routes.ts';
import { agreementRoutes } from './agreements/routes.ts';
import { apiKeyRoutes } from './api-keys/routes.ts';
import { appRoutes } from './apps/routes.ts';
import { clientRoutes } from './clients/routes.ts';
import { deviceGroupRoutes } from './device-groups/routes.ts';
import { deviceRoutes } from './devices/routes.ts';
import { groupRoutes } from './groups/routes.ts';
import { invitationRoutes } from './invitations/routes.ts';
import { modelPathRoutes } from './model-paths/routes.ts';
import { onboardingRoutes } from './onboarding/routes.ts';
import { organizationAppRoutes } from './organization-apps/routes.ts';
import { organizationAdminRoutes } from './organizations/admin-routes.ts';
import { organizationRoutes } from './organizations/routes.ts';
import { preferenceRoutes } from './preferences/routes.ts';
import { roleRoutes } from './roles/routes.ts';
import { securityPolicyRoutes } from './security-policies/routes.ts';
import { statusRoutes } from './status/routes.ts';
import { userRoutes } from './users/routes.ts';

/** The core service: organizations, users and everything around a person's account. */
export const coreService: ServiceDefinition = {
  name: 'core',
  title: 'Edgeport core service',
  routes: async (app, context) => {
    for (const area of [
      organizationRoutes,
      organizationAdminRoutes,
      deviceRoutes,
      onboardingRoutes,
      agreementRoutes,
      preferenceRoutes,
      accountRoutes,
      statusRoutes,
      userRoutes,
      invitationRoutes,
      groupRoutes,
      roleRoutes,
      modelPathRoutes,
      securityPolicyRoutes,
      apiKeyRoutes,
      clientRoutes,
      deviceGroupRoutes,
      appRoutes,
      organizationAppRoutes,
    ]) {
      await app.register(area, context);
    }
  },
};
