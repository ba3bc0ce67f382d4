import { buildAbility, type RptRule, SCREEN_IDS } from '@edgeport/permissions';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from './route-table.ts';
import { mergeRoutes, type PortalRoute } from './route-types.ts';
import { DIRECT_ACCESS_PATH, homePath, isDashboardEditor, SCREEN_PATHS, visibleMenu } from './screens.ts';

const page = async () => ({ default: () => null });
const rules = (...entries: [string, string][]): RptRule[] =>
  entries.map(([rsname, scope]) => ({ rsname, scopes: [scope] }) as RptRule);
const PORTAL: [string, string] = ['portal', 'ACCESS'];

/** Spec 2's routes, as the table must register them. */
const SPEC_ROUTES = [
  '/organization',
  '/agreements',
  '/directaccess',
  '/directaccess/dashboards',
  '/directaccess/applications',
  '/directaccess/flows',
  '/flows',
  '/flows/dashboards',
  '/flows/widgets',
  '/dashboards/:projectId',
  '/dashboards/:projectId/edit',
  '/dashboards/:projectId/new',
  '/flow/:flowId/:dashboardFlowId?',
  '/vpn',
  '/vpn/endpoints',
  '/vpn/applications',
  '/vpn/profiles',
  '/devices',
  '/devices/groups',
  '/walkthrough',
  '/devicemap',
  '/permission',
  '/permission/groups',
  '/permission/roles',
  '/roles',
  '/roles/data',
  '/roles/device',
  '/organizations',
  '/organizations/resources',
  '/organizations/consumptions',
  '/data-explore',
  '/notifications',
  '/store',
  '/store/manage',
  '/store/container/:id',
  '/store/install/:appId',
  '/dealer',
  '/dealer/clients',
  '/dealer/licenses',
  '/log',
  '/log/failed-notifications',
  '/admin/notifications',
  '/alarms',
  '/alarms/alarms-history',
  '/trigger',
  '/404',
  '/vpn_logout',
  '/login',
  '/register',
];

describe('route table', () => {
  it('registers every route of spec 2 once', () => {
    const paths = ROUTE_TABLE.map((route) => route.path);
    for (const path of SPEC_ROUTES) expect(paths, path).toContain(path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('guards every product route with a screen of spec 6; only /login, /register (spec 2) and /vpn_logout are public', () => {
    const publicPaths = ROUTE_TABLE.filter((route) => route.access === 'public').map((route) => route.path);
    expect(publicPaths.sort()).toEqual(['/login', '/register', '/vpn_logout']);
    const unguarded = ROUTE_TABLE.filter((route) => route.access === 'organization' && !route.screen);
    expect(unguarded.map((route) => route.path).sort()).toEqual(['*', '/404', '/directaccess']);
  });

  it('lets a feature route replace a declaration and keep its guard', () => {
    const declared: PortalRoute[] = [{ path: '/devices', access: 'organization', screen: 'devices' }];
    const merged = mergeRoutes(declared, [{ path: '/devices', access: 'organization', page }]);
    expect(merged).toEqual([{ path: '/devices', access: 'organization', page, screen: 'devices' }]);
  });

  it('names a path for every screen', () => {
    for (const screen of SCREEN_IDS) expect(SCREEN_PATHS[screen]).toMatch(/^\//);
  });
});

describe('home redirect wiring', () => {
  const devices = buildAbility(rules(PORTAL, ['devices', 'READ']), { iot: false, vpn: true });
  const built: PortalRoute[] = [
    { path: '/vpn', access: 'organization', screen: 'vpn', page },
    { path: '/devices', access: 'organization', screen: 'devices', page },
  ];

  it('goes to the first screen of the home order (homeScreen) when its page is built', () => {
    expect(homePath(built, devices, { iot: false, vpn: true })).toBe('/vpn');
    expect(homePath(built, devices, { iot: false, vpn: false })).toBe('/devices');
    expect(homePath(built, devices, { iot: true, vpn: true })).toBe('/devices');
  });

  it('falls back to /directaccess while that screen is not built, or when nothing may be seen', () => {
    expect(homePath([], devices, { iot: false, vpn: true })).toBe(DIRECT_ACCESS_PATH);
    const nothing = buildAbility(rules(PORTAL), { iot: true, vpn: true });
    expect(homePath(built, nothing, { iot: true, vpn: true })).toBe('/directaccess');
  });
});

describe('side menu', () => {
  it('shows the screens the ability allows, grouped by area, marking the ones not built', () => {
    const ability = buildAbility(rules(PORTAL, ['devices', 'READ'], ['organizations', 'READ']), {
      iot: false,
      vpn: true,
    });
    const menu = visibleMenu(
      [{ path: '/devices', access: 'organization', screen: 'devices', page }],
      ability,
      { iot: false, vpn: true },
    );
    expect(menu.map((group) => group.area)).toEqual(['devices', 'remoteAccess', 'administration', 'store']);
    expect(menu[0]?.entries).toEqual([{ id: 'devices', screen: 'devices', path: '/devices', built: true }]);
    expect(menu[1]?.entries.every((entry) => !entry.built)).toBe(true);
  });

  it('hides IoT-only screens without IoT even with the permissions', () => {
    const ability = buildAbility(
      rules(PORTAL, ['models', 'READ'], ['dashboards', 'READ'], ['devices', 'READ']),
      {
        iot: false,
        vpn: false,
      },
    );
    const areas = visibleMenu([], ability, { iot: false, vpn: false }).map((group) => group.area);
    expect(areas).toEqual(['devices']);
  });
});

describe('menu shortcut', () => {
  it('is off only in the dashboard editor', () => {
    expect(isDashboardEditor('/dashboards/42/edit')).toBe(true);
    expect(isDashboardEditor('/dashboards/42/new')).toBe(true);
    expect(isDashboardEditor('/dashboards/42')).toBe(false);
    expect(isDashboardEditor('/devices')).toBe(false);
  });
});
