import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/organizations',
    access: 'organization',
    screen: 'organizations',
    page: () => import('./OrganizationsPage.tsx'),
  },
];
