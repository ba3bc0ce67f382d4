import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/permission',
    access: 'organization',
    screen: 'permission',
    page: () => import('./UsersPage.tsx'),
  },
];
