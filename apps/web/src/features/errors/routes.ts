import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  { path: '/404', access: 'organization', page: () => import('./NotFoundPage.tsx') },
  { path: '*', access: 'organization', page: () => import('./NotFoundPage.tsx') },
];
