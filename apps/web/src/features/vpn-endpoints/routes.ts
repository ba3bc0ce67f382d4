import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/vpn/endpoints',
    access: 'organization',
    screen: 'vpn',
    page: () => import('./EndpointsPage.tsx'),
  },
];
