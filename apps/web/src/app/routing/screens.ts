import {
  type AppAbility,
  canSeeScreen,
  HOME_FALLBACK,
  homeScreen,
  type OrgFeatures,
  type ScreenId,
} from '@edgeport/permissions';
import { matchPath } from 'react-router';
import type { PortalRoute } from './route-types.ts';

/** The address each screen opens at (its list or start page). */
export const SCREEN_PATHS: Record<ScreenId, string> = {
  'vpn-devices': '/vpn',
  dashboards: '/flows/dashboards',
  flows: '/flows',
  devices: '/devices',
  devicegroups: '/devices/groups',
  devicemodels: '/devices/models',
  vpn: '/vpn',
  walkthrough: '/walkthrough',
  devicemap: '/devicemap',
  'data-explore': '/data-explore',
  permission: '/permission',
  roles: '/roles',
  organizations: '/organizations',
  store: '/store',
  dealer: '/dealer',
  log: '/log',
  'admin-notifications': '/admin/notifications',
  alarms: '/alarms',
  notifications: '/notifications',
  trigger: '/trigger',
  directaccess: '/directaccess',
};

export const DIRECT_ACCESS_PATH = SCREEN_PATHS[HOME_FALLBACK];

export function isBuilt(routes: readonly PortalRoute[], path: string): boolean {
  return routes.some((route) => route.path === path && route.page !== undefined);
}

/**
 * Spec 2's /home: the first screen of the home order the user may see (`homeScreen` of @edgeport/permissions).
 * While that screen's page is not built yet, the final fallback /directaccess is the answer, never a route that
 * would send the user straight back to /home.
 */
export function homePath(routes: readonly PortalRoute[], ability: AppAbility, features: OrgFeatures): string {
  const path = SCREEN_PATHS[homeScreen(ability, features)];
  return isBuilt(routes, path) ? path : DIRECT_ACCESS_PATH;
}

export type MenuArea = 'data' | 'devices' | 'remoteAccess' | 'administration' | 'store' | 'dealer';

export type MenuEntry = {
  /** i18n key under `menu.entries`. */
  id: string;
  screen: ScreenId;
  path: string;
};

/** The side menu, grouped by area (ARCHITECTURE.md look and feel). */
export const MENU: readonly { area: MenuArea; entries: readonly MenuEntry[] }[] = [
  {
    area: 'data',
    entries: [
      { id: 'dashboards', screen: 'dashboards', path: '/flows/dashboards' },
      { id: 'flows', screen: 'flows', path: '/flows' },
      { id: 'dataExplore', screen: 'data-explore', path: '/data-explore' },
      { id: 'alarms', screen: 'alarms', path: '/alarms' },
      { id: 'notifications', screen: 'notifications', path: '/notifications' },
      { id: 'trigger', screen: 'trigger', path: '/trigger' },
    ],
  },
  {
    area: 'devices',
    entries: [
      { id: 'devices', screen: 'devices', path: '/devices' },
      { id: 'deviceGroups', screen: 'devicegroups', path: '/devices/groups' },
      { id: 'deviceModels', screen: 'devicemodels', path: '/devices/models' },
      { id: 'deviceMap', screen: 'devicemap', path: '/devicemap' },
      { id: 'walkthrough', screen: 'walkthrough', path: '/walkthrough' },
    ],
  },
  {
    area: 'remoteAccess',
    entries: [
      { id: 'vpn', screen: 'vpn', path: '/vpn' },
      { id: 'vpnEndpoints', screen: 'vpn', path: '/vpn/endpoints' },
      { id: 'vpnApplications', screen: 'vpn', path: '/vpn/applications' },
      { id: 'vpnProfiles', screen: 'vpn', path: '/vpn/profiles' },
    ],
  },
  {
    area: 'administration',
    entries: [
      { id: 'permission', screen: 'permission', path: '/permission' },
      { id: 'roles', screen: 'roles', path: '/roles' },
      { id: 'organizations', screen: 'organizations', path: '/organizations' },
      { id: 'log', screen: 'log', path: '/log' },
      { id: 'adminNotifications', screen: 'admin-notifications', path: '/admin/notifications' },
    ],
  },
  {
    area: 'store',
    entries: [
      { id: 'store', screen: 'store', path: '/store' },
      { id: 'storeManage', screen: 'store', path: '/store/manage' },
    ],
  },
  {
    area: 'dealer',
    entries: [
      { id: 'dealerClients', screen: 'dealer', path: '/dealer/clients' },
      { id: 'dealerLicenses', screen: 'dealer', path: '/dealer/licenses' },
    ],
  },
];

export type VisibleMenuEntry = MenuEntry & { built: boolean };

/** The menu the ability allows: areas without an entry are left out. */
export function visibleMenu(
  routes: readonly PortalRoute[],
  ability: AppAbility,
  features: OrgFeatures,
): { area: MenuArea; entries: VisibleMenuEntry[] }[] {
  return MENU.map(({ area, entries }) => ({
    area,
    entries: entries
      .filter((entry) => canSeeScreen(ability, entry.screen, features))
      .map((entry) => ({ ...entry, built: isBuilt(routes, entry.path) })),
  })).filter((group) => group.entries.length > 0);
}

const EDITOR_PATHS = ['/dashboards/:projectId/edit', '/dashboards/:projectId/new'];

/** The dashboard editor keeps its own keyboard shortcuts (spec 2): the menu shortcut is off there. */
export function isDashboardEditor(pathname: string): boolean {
  return EDITOR_PATHS.some((pattern) => matchPath(pattern, pathname) !== null);
}
