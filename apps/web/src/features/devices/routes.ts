import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  { path: '/devices', access: 'organization', screen: 'devices', page: () => import('./DevicesPage.tsx') },
  {
    path: '/devices/groups',
    access: 'organization',
    screen: 'devicegroups',
    page: () => import('./DeviceGroupsPage.tsx'),
  },
];
