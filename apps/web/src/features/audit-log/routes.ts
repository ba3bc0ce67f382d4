import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  { path: '/log', access: 'organization', screen: 'log', page: () => import('./AuditLogPage.tsx') },
];
