import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/walkthrough',
    access: 'organization',
    screen: 'walkthrough',
    page: () => import('./WalkthroughPage.tsx'),
  },
];
