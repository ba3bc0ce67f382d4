import { describe, expect, it } from 'vitest';
import { PORTAL_ROUTES, pageOfPortalRoute } from './portal-routes.ts';
import { PAGE_IDS } from './protocol.ts';

describe('portal routes of the page identifiers', () => {
  it('has a route for every page identifier of spec 2', () => {
    expect(Object.keys(PORTAL_ROUTES).sort()).toEqual([...PAGE_IDS].sort());
    for (const route of Object.values(PORTAL_ROUTES)) expect(route).toMatch(/^\/[a-z-/]+$/);
  });

  it('finds the page of a route and of its sub-routes, the first in spec order when two share one', () => {
    expect(pageOfPortalRoute('/devices')).toBe('device-manage');
    expect(pageOfPortalRoute('/devices/groups')).toBe('device-manage');
    expect(pageOfPortalRoute('/permission/roles?x=1')).toBe('iam-users');
    expect(pageOfPortalRoute('/log/failed-notifications')).toBe('audit');
    expect(pageOfPortalRoute('/home/')).toBe('home');
    expect(pageOfPortalRoute('/store')).toBeUndefined();
    expect(pageOfPortalRoute('/devicesx')).toBeUndefined();
    expect(pageOfPortalRoute('/')).toBeUndefined();
  });
});
