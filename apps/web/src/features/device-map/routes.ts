import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/devicemap',
    access: 'organization',
    screen: 'devicemap',
    page: () => import('./DeviceMapPage.tsx'),
  },
];
