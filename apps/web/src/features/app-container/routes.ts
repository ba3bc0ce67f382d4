import type { PortalRoute } from '../../app/routing/route-types.ts';

/** Spec 2: /store/container/{id} embeds a store app (spec 6: the store screen, READ organizations). */
export const routes: PortalRoute[] = [
  {
    path: '/store/container/:id',
    access: 'organization',
    screen: 'store',
    page: () => import('./AppContainerPage.tsx'),
  },
];
