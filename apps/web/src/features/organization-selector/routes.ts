import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  { path: '/organization', access: 'session', page: () => import('./OrganizationSelectorPage.tsx') },
];
