import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  {
    path: '/dashboards/:projectId',
    access: 'organization',
    screen: 'dashboards',
    page: () => import('./viewer/ViewerPage.tsx'),
  },
  {
    path: '/dashboards/:projectId/edit',
    access: 'organization',
    screen: 'dashboards',
    page: () => import('./editor/EditorPage.tsx'),
  },
  {
    path: '/dashboards/:projectId/new',
    access: 'organization',
    screen: 'dashboards',
    page: () => import('./editor/EditorPage.tsx'),
  },
];
