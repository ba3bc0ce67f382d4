import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/permission/roles',
    access: 'organization',
    screen: 'permission',
    page: () => import('./PermissionRolesPage.tsx'),
  },
  { path: '/roles', access: 'organization', screen: 'roles', page: () => import('./RolesPage.tsx') },
  {
    path: '/roles/data',
    access: 'organization',
    screen: 'roles',
    page: () => import('./RolesPage.tsx').then((module) => ({ default: module.DataRolesPage })),
  },
  {
    path: '/roles/device',
    access: 'organization',
    screen: 'roles',
    page: () => import('./RolesPage.tsx').then((module) => ({ default: module.DeviceRolesPage })),
  },
];
