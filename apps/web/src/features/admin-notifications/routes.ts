import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/admin/notifications',
    access: 'organization',
    screen: 'admin-notifications',
    page: () => import('./AdminNotificationsPage.tsx'),
  },
];
