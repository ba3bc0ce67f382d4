import { buildAbility, type RptRule } from '@edgeport/permissions';
import { describe, expect, it } from 'vitest';
import { availableCategories, categoryOf, firstWithContent, sourcesFor } from './categories.ts';

const rules = (...entries: [string, string][]): RptRule[] =>
  entries.map(([rsname, scope]) => ({ rsname, scopes: [scope] }) as RptRule);
const PORTAL: [string, string] = ['portal', 'ACCESS'];

describe('/directaccess lists', () => {
  it('lists dashboards and flows with READ dashboards in an IoT organization only', () => {
    const reader = buildAbility(rules(PORTAL, ['dashboards', 'READ']), { iot: true, vpn: false });
    expect(availableCategories(sourcesFor(reader, { iot: true, vpn: false }))).toEqual([
      'dashboards',
      'flows',
    ]);
    const noIot = buildAbility(rules(PORTAL, ['dashboards', 'READ']), { iot: false, vpn: false });
    expect(availableCategories(sourcesFor(noIot, { iot: false, vpn: false }))).toEqual([]);
  });

  it('lists applications from the store (READ organizations) or the VPN shortcuts (VPN screen)', () => {
    const store = buildAbility(rules(PORTAL, ['organizations', 'READ']), { iot: false, vpn: false });
    expect(sourcesFor(store, { iot: false, vpn: false })).toMatchObject({
      storeApps: true,
      vpnShortcuts: false,
    });
    const vpn = buildAbility(rules(PORTAL, ['devices', 'READ']), { iot: false, vpn: true });
    const sources = sourcesFor(vpn, { iot: false, vpn: true });
    expect(sources).toMatchObject({ storeApps: false, vpnShortcuts: true });
    expect(availableCategories(sources)).toEqual(['applications']);
  });

  it('offers nothing to portal access alone (the empty card)', () => {
    const nothing = buildAbility(rules(PORTAL), { iot: true, vpn: true });
    expect(availableCategories(sourcesFor(nothing, { iot: true, vpn: true }))).toEqual([]);
  });

  it('reads the category of the address and picks the first list with content', () => {
    expect(categoryOf('/directaccess')).toBeUndefined();
    expect(categoryOf('/directaccess/flows')).toBe('flows');
    expect(categoryOf('/directaccess/applications/')).toBe('applications');
    expect(firstWithContent({ dashboards: 0, applications: 2, flows: 1 })).toBe('applications');
    expect(firstWithContent({ dashboards: 0 })).toBeUndefined();
  });
});
