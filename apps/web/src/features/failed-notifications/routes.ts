import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/log/failed-notifications',
    access: 'organization',
    screen: 'log',
    page: () => import('./FailedNotificationsPage.tsx'),
  },
];
