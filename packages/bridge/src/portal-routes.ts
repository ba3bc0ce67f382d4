import type { PageId } from './protocol.ts';

/**
 * Where the Edgeport portal shows each page identifier of spec 2 (its hash routes). The portal uses it as a host
 * (an embedded app asks to navigate) and as a guest (its own menu asks its host page to navigate); a host page
 * embedding the portal can use it to send the portal to a page.
 */
export const PORTAL_ROUTES: Readonly<Record<PageId, string>> = {
  home: '/home',
  // The dashboards a user may open: spec 2's /directaccess sub-route (there is no list route under /dashboards).
  dashboard: '/directaccess/dashboards',
  // Activating a device is the walkthrough (spec 6: READ models and CREATE devices).
  'device-activate': '/walkthrough',
  'device-manage': '/devices',
  // Remote access to devices over VPN.
  'device-vpn': '/vpn',
  // A device's data configuration (model, preset, data tags) is edited from the devices screen.
  'data-configure': '/devices',
  'data-explore': '/data-explore',
  'data-alarms': '/alarms',
  'data-notifications': '/notifications',
  'iam-organizations': '/organizations',
  // Spec 2: /permission holds the users (sub-routes groups, roles).
  'iam-users': '/permission',
  'iam-roles': '/roles',
  dealer: '/dealer',
  // The audit log is the /log screen (spec 6: ACCESS audit and READ roles); 'log' names the same screen.
  audit: '/log',
  log: '/log',
};

/** The page identifier of a portal route (itself or one of its sub-routes), the first in spec 2's order. */
export function pageOfPortalRoute(path: string): PageId | undefined {
  const clean = path.split('?')[0]?.replace(/\/+$/, '') || '/';
  for (const [page, route] of Object.entries(PORTAL_ROUTES) as [PageId, string][]) {
    if (clean === route || clean.startsWith(`${route}/`)) return page;
  }
  return undefined;
}
