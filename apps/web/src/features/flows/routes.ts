import type { PortalRoute } from '../../app/routing/route-types.ts';

export const routes: PortalRoute[] = [
  { path: '/flows', access: 'organization', screen: 'flows', page: () => import('./FlowsPage.tsx') },
  {
    path: '/flows/dashboards',
    access: 'organization',
    screen: 'dashboards',
    page: () => import('./FlowsPage.tsx'),
  },
  { path: '/flows/widgets', access: 'organization', screen: 'flows', page: () => import('./FlowsPage.tsx') },
  {
    path: '/flow/:flowId/:dashboardFlowId?',
    access: 'organization',
    screen: 'flows',
    page: () => import('./viewer/FlowViewerPage.tsx'),
  },
];
