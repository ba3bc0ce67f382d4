import type { PortalRoute } from '../../app/routing/route-types.ts';

/** Spec 2 /organizations sub-routes: resources and consumptions (spec 6: READ organizations, like /organizations). */
export const routes: PortalRoute[] = [
  {
    path: '/organizations/resources',
    access: 'organization',
    screen: 'organizations',
    page: () => import('./ResourcesPage.tsx'),
  },
  {
    path: '/organizations/consumptions',
    access: 'organization',
    screen: 'organizations',
    page: () => import('./ConsumptionsPage.tsx'),
  },
];
