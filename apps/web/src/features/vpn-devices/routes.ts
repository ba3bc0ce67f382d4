import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  { path: '/vpn', access: 'organization', screen: 'vpn', page: () => import('./VpnDevicesPage.tsx') },
];
