import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/data-explore',
    access: 'organization',
    screen: 'data-explore',
    page: () => import('./DataExplorePage.tsx'),
  },
];
