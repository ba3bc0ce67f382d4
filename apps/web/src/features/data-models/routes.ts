import type { PortalRoute } from '../../app/routing/route-types.ts';

/**
 * Models and presets: sub-routes of /devices beside groups. They need READ models and READ devices (IoT only), the
 * requirement spec 6 gives the device map, so they share its screen guard.
 */
export const routes: PortalRoute[] = [
  {
    path: '/devices/models',
    access: 'organization',
    screen: 'devicemap',
    page: () => import('./ModelsPage.tsx'),
  },
  {
    path: '/devices/presets',
    access: 'organization',
    screen: 'devicemap',
    page: () => import('./PresetsPage.tsx'),
  },
];
