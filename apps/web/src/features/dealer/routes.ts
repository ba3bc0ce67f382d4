import type { PortalRoute } from '../../app/routing/route-types.ts';

/** Spec 2 /dealer with its sub-routes clients and licenses; spec 6: CREATE or UPDATE on products. */
export const routes: PortalRoute[] = [
  { path: '/dealer', access: 'organization', screen: 'dealer', page: () => import('./DealerIndexPage.tsx') },
  {
    path: '/dealer/clients',
    access: 'organization',
    screen: 'dealer',
    page: () => import('./ClientsPage.tsx'),
  },
  {
    path: '/dealer/licenses',
    access: 'organization',
    screen: 'dealer',
    page: () => import('./LicensesPage.tsx'),
  },
];
