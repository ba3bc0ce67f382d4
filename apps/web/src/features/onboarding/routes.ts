import type { PortalRoute } from '../../app/routing/route-types.ts';

/** Spec 2: the public routes (no login). */
export const routes: PortalRoute[] = [
  { path: '/login', access: 'public', page: () => import('./LoginPage.tsx') },
  { path: '/register', access: 'public', page: () => import('./RegisterPage.tsx') },
];
