import type { PortalRoute } from './route-types.ts';

function product(path: string, screen: PortalRoute['screen']): PortalRoute {
  return { path, access: 'organization', ...(screen && { screen }) };
}

/**
 * Spec 2's product screens with their guards (spec 6). Their pages come with their own features: a feature's
 * `routes.ts` with the same path and a `page` replaces the entry here. Until then the route resolves to /home.
 */
export const PRODUCT_ROUTES: readonly PortalRoute[] = [
  product('/directaccess/dashboards', 'directaccess'),
  product('/directaccess/applications', 'directaccess'),
  product('/directaccess/flows', 'directaccess'),
  product('/flows', 'flows'),
  product('/flows/dashboards', 'dashboards'),
  product('/flows/widgets', 'flows'),
  product('/dashboards/:projectId', 'dashboards'),
  product('/dashboards/:projectId/edit', 'dashboards'),
  product('/dashboards/:projectId/new', 'dashboards'),
  product('/flow/:flowId/:dashboardFlowId?', 'flows'),
  product('/vpn', 'vpn'),
  product('/vpn/endpoints', 'vpn'),
  product('/vpn/applications', 'vpn'),
  product('/vpn/profiles', 'vpn'),
  product('/devices', 'devices'),
  product('/devices/groups', 'devicegroups'),
  product('/devices/models', 'devicemodels'),
  product('/devices/presets', 'devicemodels'),
  product('/walkthrough', 'walkthrough'),
  product('/devicemap', 'devicemap'),
  product('/permission', 'permission'),
  product('/permission/groups', 'permission'),
  product('/permission/roles', 'permission'),
  product('/roles', 'roles'),
  product('/roles/data', 'roles'),
  product('/roles/device', 'roles'),
  product('/organizations', 'organizations'),
  product('/organizations/resources', 'organizations'),
  product('/organizations/consumptions', 'organizations'),
  product('/data-explore', 'data-explore'),
  product('/notifications', 'notifications'),
  product('/store', 'store'),
  product('/store/manage', 'store'),
  product('/store/container/:id', 'store'),
  product('/store/install/:appId', 'store'),
  product('/dealer', 'dealer'),
  product('/dealer/clients', 'dealer'),
  product('/dealer/licenses', 'dealer'),
  product('/log', 'log'),
  product('/log/failed-notifications', 'log'),
  product('/admin/notifications', 'admin-notifications'),
  product('/alarms', 'alarms'),
  product('/alarms/alarms-history', 'alarms'),
  product('/trigger', 'trigger'),
];
