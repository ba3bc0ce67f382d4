import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/notifications',
    access: 'organization',
    screen: 'notifications',
    page: () => import('./NotificationsPage.tsx'),
  },
];
