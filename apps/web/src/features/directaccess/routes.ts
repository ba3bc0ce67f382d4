import type { PortalRoute } from '../../app/routing/route-types.ts';

/**
 * The final fallback of /home (spec 2). It carries no screen guard on purpose: a user who may see nothing must still
 * land somewhere, and guarding it would send them back to /home. Its sub-routes list what the user can open
 * directly: dashboards, applications and flows (guarded by the open `directaccess` screen).
 */
export const routes: PortalRoute[] = [
  { path: '/directaccess', access: 'organization', page: () => import('./DirectAccessPage.tsx') },
  {
    path: '/directaccess/dashboards',
    access: 'organization',
    screen: 'directaccess',
    page: () => import('./DirectAccessPage.tsx'),
  },
  {
    path: '/directaccess/applications',
    access: 'organization',
    screen: 'directaccess',
    page: () => import('./DirectAccessPage.tsx'),
  },
  {
    path: '/directaccess/flows',
    access: 'organization',
    screen: 'directaccess',
    page: () => import('./DirectAccessPage.tsx'),
  },
];
