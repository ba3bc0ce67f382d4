import type { PortalRoute } from '../../app/routing/route-types.ts';

/** Models and presets: sub-routes of /devices beside groups (READ models and READ devices, IoT only). */
export const routes: PortalRoute[] = [
  {
    path: '/devices/models',
    access: 'organization',
    screen: 'devicemodels',
    page: () => import('./ModelsPage.tsx'),
  },
  {
    path: '/devices/presets',
    access: 'organization',
    screen: 'devicemodels',
    page: () => import('./PresetsPage.tsx'),
  },
];
