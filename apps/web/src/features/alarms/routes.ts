import type { PortalRoute } from '../../app/routing/route-types.ts';

/** Spec 2 /alarms and its sub-route alarms-history; spec 6: READ devices, IoT only (the screen table's guard). */
export const routes: PortalRoute[] = [
  { path: '/alarms', access: 'organization', screen: 'alarms', page: () => import('./AlarmsPage.tsx') },
  {
    path: '/alarms/alarms-history',
    access: 'organization',
    screen: 'alarms',
    page: () => import('./AlarmsHistoryPage.tsx'),
  },
];
