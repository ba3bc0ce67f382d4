import type { PortalRoute } from '../../app/routing/route-types.ts';

/**
 * The final fallback of /home (spec 2). It carries no screen guard on purpose: a user who may see nothing must still
 * land somewhere, and guarding it would send them back to /home.
 */
export const routes: PortalRoute[] = [
  { path: '/directaccess', access: 'organization', page: () => import('./DirectAccessPage.tsx') },
];
