import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/permission/groups',
    access: 'organization',
    screen: 'permission',
    page: () => import('./GroupsPage.tsx'),
  },
];
