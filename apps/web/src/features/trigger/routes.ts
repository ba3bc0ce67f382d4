import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  { path: '/trigger', access: 'organization', screen: 'trigger', page: () => import('./TriggerPage.tsx') },
];
