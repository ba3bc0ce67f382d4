import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  { path: '/vpn_logout', access: 'public', page: () => import('./VpnLogoutPage.tsx') },
];
