import type { PortalRoute } from '../../app/routing/route-types.ts';

/** Spec 2: the app store (spec 6: READ organizations). /store/container/{id} is the app-container feature's. */
export const routes: PortalRoute[] = [
  { path: '/store', access: 'organization', screen: 'store', page: () => import('./CataloguePage.tsx') },
  { path: '/store/manage', access: 'organization', screen: 'store', page: () => import('./ManagePage.tsx') },
  {
    path: '/store/install/:appId',
    access: 'organization',
    screen: 'store',
    page: () => import('./InstallPage.tsx'),
  },
];
