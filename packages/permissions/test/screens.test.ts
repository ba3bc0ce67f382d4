import { describe, expect, it } from 'vitest';
import type { OrgFeatures, ScreenId } from '../src/index.ts';
import { canSeeScreen, HOME_ORDER, homeScreen, SCREEN_IDS, SCREEN_REQUIREMENTS } from '../src/index.ts';
import type { Pair } from './helpers.ts';
import { ALL_PAIRS, abilityOf, FULL_ORG, PORTAL, samePair } from './helpers.ts';

type Row = {
  screen: ScreenId;
  /** Each entry alone (plus ACCESS portal) is enough to see the screen. */
  sufficient: readonly (readonly Pair[])[];
  iotOnly?: boolean;
  vpnOnly?: boolean;
};

// Spec section 6, written out independently of the implementation's table.
const SPEC_TABLE: readonly Row[] = [
  {
    screen: 'dashboards',
    sufficient: [
      [
        ['READ', 'models'],
        ['READ', 'dashboards'],
      ],
    ],
    iotOnly: true,
  },
  {
    screen: 'flows',
    sufficient: [
      [
        ['READ', 'models'],
        ['READ', 'dashboards'],
      ],
    ],
    iotOnly: true,
  },
  { screen: 'devices', sufficient: [[['READ', 'devices']]] },
  {
    screen: 'devicegroups',
    sufficient: [
      [
        ['READ', 'devices'],
        ['READ', 'devicegroups'],
      ],
    ],
  },
  {
    screen: 'devicemodels',
    sufficient: [
      [
        ['READ', 'models'],
        ['READ', 'devices'],
      ],
    ],
    iotOnly: true,
  },
  { screen: 'vpn', sufficient: [[['READ', 'devices']]], vpnOnly: true },
  { screen: 'vpn-devices', sufficient: [[['READ', 'devices']]], vpnOnly: true },
  {
    screen: 'walkthrough',
    sufficient: [
      [
        ['READ', 'models'],
        ['CREATE', 'devices'],
      ],
    ],
  },
  {
    screen: 'devicemap',
    sufficient: [
      [
        ['READ', 'models'],
        ['READ', 'devices'],
      ],
    ],
    iotOnly: true,
  },
  {
    screen: 'data-explore',
    sufficient: [
      [
        ['READ', 'models'],
        ['READ', 'devices'],
      ],
    ],
    iotOnly: true,
  },
  { screen: 'permission', sufficient: [[['READ', 'roles']], [['READ', 'users']], [['READ', 'usergroups']]] },
  { screen: 'roles', sufficient: [[['READ', 'roles']]] },
  { screen: 'organizations', sufficient: [[['READ', 'organizations']]] },
  { screen: 'store', sufficient: [[['READ', 'organizations']]] },
  { screen: 'dealer', sufficient: [[['CREATE', 'products']], [['UPDATE', 'products']]] },
  {
    screen: 'log',
    sufficient: [
      [
        ['ACCESS', 'audit'],
        ['READ', 'roles'],
      ],
    ],
  },
  {
    screen: 'admin-notifications',
    sufficient: [[['READ', 'organizations']], [['UPDATE', 'organizations']]],
    iotOnly: true,
  },
  { screen: 'alarms', sufficient: [[['READ', 'devices']]], iotOnly: true },
  { screen: 'notifications', sufficient: [[['READ', 'notifications']]], iotOnly: true },
  { screen: 'trigger', sufficient: [[['READ', 'organizations']]], iotOnly: true },
  { screen: 'directaccess', sufficient: [[]] },
];

const NO_IOT: OrgFeatures = { iot: false, vpn: true };
const NO_VPN: OrgFeatures = { iot: true, vpn: false };
const NOTHING: OrgFeatures = { iot: false, vpn: false };

function without(pairs: readonly Pair[], removed: readonly Pair[]): Pair[] {
  return pairs.filter((pair) => !removed.some((other) => samePair(pair, other)));
}

function visible(screen: ScreenId, pairs: readonly Pair[], org: OrgFeatures = FULL_ORG): boolean {
  return canSeeScreen(abilityOf(pairs, org), screen, org);
}

describe('the screen table', () => {
  it('declares every screen exactly once and the spec rows cover them all', () => {
    expect(SCREEN_REQUIREMENTS.map((requirement) => requirement.screen).sort()).toEqual(
      [...SCREEN_IDS].sort(),
    );
    expect(SPEC_TABLE.map((row) => row.screen).sort()).toEqual([...SCREEN_IDS].sort());
  });

  it('puts ACCESS on portal into every screen', () => {
    for (const requirement of SCREEN_REQUIREMENTS) {
      expect(
        requirement.groups.some((group) => group.length === 1 && samePair(group[0] ?? PORTAL, PORTAL)),
      ).toBe(true);
    }
  });

  it('rejects an unknown screen instead of throwing', () => {
    expect(canSeeScreen(abilityOf(ALL_PAIRS), 'nowhere' as ScreenId, FULL_ORG)).toBe(false);
  });
});

describe.each(SPEC_TABLE)('screen $screen', (row) => {
  const needed = row.sufficient.flat();

  it.each(row.sufficient.map((pairs) => [pairs]))('is shown with ACCESS portal and %j', (pairs) => {
    expect(visible(row.screen, [PORTAL, ...pairs])).toBe(true);
  });

  it.each(row.sufficient.map((pairs) => [pairs]))('is hidden with %j but without ACCESS portal', (pairs) => {
    expect(visible(row.screen, pairs)).toBe(false);
  });

  it('is hidden without ACCESS portal even with every other permission', () => {
    expect(visible(row.screen, without(ALL_PAIRS, [PORTAL]))).toBe(false);
  });

  it('is hidden when any single required permission is missing', () => {
    for (const pairs of row.sufficient) {
      for (const missing of pairs) {
        expect(visible(row.screen, [PORTAL, ...without(pairs, [missing])])).toBe(false);
      }
    }
  });

  it('is hidden with every permission except the ones the spec names for it', () => {
    const shouldHide = needed.length > 0;
    expect(visible(row.screen, without(ALL_PAIRS, needed))).toBe(!shouldHide);
  });

  it(row.iotOnly ? 'is hidden when IoT is off' : 'does not depend on the IoT flag itself', () => {
    const needsIotResource = needed.some(([, resource]) => resource === 'models');
    expect(visible(row.screen, ALL_PAIRS, NO_IOT)).toBe(!row.iotOnly && !needsIotResource);
  });

  it(row.vpnOnly ? 'is hidden when VPN is off' : 'is shown when VPN is off', () => {
    expect(visible(row.screen, ALL_PAIRS, NO_VPN)).toBe(!row.vpnOnly);
  });
});

describe('IoT off', () => {
  it('denies a route that needs models even when the token grants them (walkthrough)', () => {
    const pairs: Pair[] = [PORTAL, ['READ', 'models'], ['CREATE', 'devices']];
    expect(visible('walkthrough', pairs, FULL_ORG)).toBe(true);
    expect(visible('walkthrough', pairs, NOTHING)).toBe(false);
  });

  it('still shows screens that need no IoT resource', () => {
    const pairs: Pair[] = [PORTAL, ['READ', 'devices'], ['READ', 'devicegroups'], ['READ', 'roles']];
    for (const screen of ['devices', 'devicegroups', 'roles', 'permission'] as const) {
      expect(visible(screen, pairs, NOTHING)).toBe(true);
    }
  });
});

describe('homeScreen', () => {
  const home = (pairs: readonly Pair[], org: OrgFeatures) => homeScreen(abilityOf(pairs, org), org);

  it('follows the order of spec section 2', () => {
    expect(HOME_ORDER).toEqual([
      'vpn-devices',
      'dashboards',
      'devices',
      'vpn',
      'devicemap',
      'data-explore',
      'alarms',
      'organizations',
      'permission',
      'roles',
      'dealer',
      'store',
      'walkthrough',
      'notifications',
    ]);
  });

  it('IoT on, VPN on, every permission: dashboards', () => {
    expect(home(ALL_PAIRS, FULL_ORG)).toBe('dashboards');
  });

  it('IoT off, VPN on, READ devices: vpn-devices', () => {
    expect(home([PORTAL, ['READ', 'devices']], NO_IOT)).toBe('vpn-devices');
    expect(home(ALL_PAIRS, NO_IOT)).toBe('vpn-devices');
  });

  it('IoT on, VPN on, READ devices without models: devices, never vpn-devices', () => {
    expect(home([PORTAL, ['READ', 'devices']], FULL_ORG)).toBe('devices');
  });

  it('IoT off, VPN off, every permission: devices', () => {
    expect(home(ALL_PAIRS, NOTHING)).toBe('devices');
  });

  it('IoT on, VPN off, READ organizations only: organizations', () => {
    expect(home([PORTAL, ['READ', 'organizations']], NO_VPN)).toBe('organizations');
  });

  it('IoT off, VPN on, READ organizations only: organizations (vpn-devices needs READ devices)', () => {
    expect(home([PORTAL, ['READ', 'organizations']], NO_IOT)).toBe('organizations');
  });

  it('picks the later entries when nothing earlier is allowed', () => {
    expect(home([PORTAL, ['READ', 'usergroups']], FULL_ORG)).toBe('permission');
    expect(home([PORTAL, ['UPDATE', 'products']], FULL_ORG)).toBe('dealer');
    expect(home([PORTAL, ['READ', 'models'], ['CREATE', 'devices']], FULL_ORG)).toBe('walkthrough');
    expect(home([PORTAL, ['READ', 'notifications']], FULL_ORG)).toBe('notifications');
  });

  it('falls back to directaccess when only ACCESS portal is held', () => {
    expect(home([PORTAL], FULL_ORG)).toBe('directaccess');
  });

  it('falls back to directaccess without ACCESS portal, whatever else is held', () => {
    for (const org of [FULL_ORG, NO_IOT, NO_VPN, NOTHING]) {
      expect(home(without(ALL_PAIRS, [PORTAL]), org)).toBe('directaccess');
    }
  });

  it('falls back to directaccess when IoT is off and only IoT resources are granted', () => {
    expect(
      home([PORTAL, ['READ', 'notifications'], ['READ', 'models'], ['READ', 'dashboards']], NOTHING),
    ).toBe('directaccess');
  });
});
