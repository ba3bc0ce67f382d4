import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/vpn/applications',
    access: 'organization',
    screen: 'vpn',
    page: () => import('./ApplicationsPage.tsx'),
  },
  {
    path: '/vpn/profiles',
    access: 'organization',
    screen: 'vpn',
    page: () => import('./ProfilesPage.tsx'),
  },
];
