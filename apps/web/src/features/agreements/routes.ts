import type { PortalRoute } from '../../app/routing/route-types.ts';
import { AGREEMENTS_PATH } from './agreement-gate.ts';

export const routes: PortalRoute[] = [
  { path: AGREEMENTS_PATH, access: 'session', page: () => import('./AgreementsPage.tsx') },
];
