import type { AppAbility, OrgFeatures } from './ability.ts';
import type { Action, ResourceType } from './resources.ts';

export const SCREEN_IDS = [
  'dashboards',
  'flows',
  'devices',
  'devicegroups',
  'devicemodels',
  'vpn',
  'vpn-devices',
  'walkthrough',
  'devicemap',
  'data-explore',
  'permission',
  'roles',
  'organizations',
  'store',
  'dealer',
  'log',
  'admin-notifications',
  'alarms',
  'notifications',
  'trigger',
  'directaccess',
] as const;

export type ScreenId = (typeof SCREEN_IDS)[number];

export type RequiredPermission = readonly [Action, ResourceType];
/** Alternatives: at least one of them must be held. */
export type PermissionGroup = readonly RequiredPermission[];

export type ScreenRequirement = {
  screen: ScreenId;
  /** Every group must be held. */
  groups: readonly PermissionGroup[];
  iotOnly?: boolean;
  vpnOnly?: boolean;
};

const PORTAL_ACCESS: PermissionGroup = [['ACCESS', 'portal']];

/** Spec 6: every screen needs ACCESS on portal on top of its own groups. */
function screen(
  id: ScreenId,
  groups: readonly PermissionGroup[],
  flags: Pick<ScreenRequirement, 'iotOnly' | 'vpnOnly'> = {},
): ScreenRequirement {
  return { screen: id, groups: [PORTAL_ACCESS, ...groups], ...flags };
}

const READ_MODELS: PermissionGroup = [['READ', 'models']];
const READ_DASHBOARDS: PermissionGroup = [['READ', 'dashboards']];
const READ_DEVICES: PermissionGroup = [['READ', 'devices']];
const READ_ROLES: PermissionGroup = [['READ', 'roles']];
const READ_ORGANIZATIONS: PermissionGroup = [['READ', 'organizations']];
const IOT = { iotOnly: true };
const VPN = { vpnOnly: true };

/** Spec section 6, one entry per screen. */
export const SCREEN_REQUIREMENTS: readonly ScreenRequirement[] = [
  screen('dashboards', [READ_MODELS, READ_DASHBOARDS], IOT),
  screen('flows', [READ_MODELS, READ_DASHBOARDS], IOT),
  screen('devices', [READ_DEVICES]),
  screen('devicegroups', [READ_DEVICES, [['READ', 'devicegroups']]]),
  screen('vpn', [READ_DEVICES], VPN),
  screen('vpn-devices', [READ_DEVICES], VPN),
  screen('walkthrough', [READ_MODELS, [['CREATE', 'devices']]]),
  screen('devicemap', [READ_MODELS, READ_DEVICES], IOT),
  // Models and presets (/devices/models, /devices/presets): what the data of devices means.
  screen('devicemodels', [READ_MODELS, READ_DEVICES], IOT),
  screen('data-explore', [READ_MODELS, READ_DEVICES], IOT),
  screen('permission', [
    [
      ['READ', 'roles'],
      ['READ', 'users'],
      ['READ', 'usergroups'],
    ],
  ]),
  screen('roles', [READ_ROLES]),
  screen('organizations', [READ_ORGANIZATIONS]),
  screen('store', [READ_ORGANIZATIONS]),
  screen('dealer', [
    [
      ['CREATE', 'products'],
      ['UPDATE', 'products'],
    ],
  ]),
  screen('log', [[['ACCESS', 'audit']], READ_ROLES]),
  screen(
    'admin-notifications',
    [
      [
        ['READ', 'organizations'],
        ['UPDATE', 'organizations'],
      ],
    ],
    IOT,
  ),
  screen('alarms', [READ_DEVICES], IOT),
  screen('notifications', [[['READ', 'notifications']]], IOT),
  screen('trigger', [READ_ORGANIZATIONS], IOT),
  screen('directaccess', []),
];

const requirementsById: ReadonlyMap<ScreenId, ScreenRequirement> = new Map(
  SCREEN_REQUIREMENTS.map((requirement) => [requirement.screen, requirement]),
);

export function screenRequirement(screenId: ScreenId): ScreenRequirement | undefined {
  return requirementsById.get(screenId);
}

function holdsGroup(ability: AppAbility, group: PermissionGroup): boolean {
  return group.some(([action, resource]) => ability.can(action, resource));
}

function featuresAllow(requirement: ScreenRequirement, org: OrgFeatures): boolean {
  return (org.iot || !requirement.iotOnly) && (org.vpn || !requirement.vpnOnly);
}

/** Spec 5: IoT-only screens hide without IoT, VPN-only ones without VPN, and every group must be held. */
export function canSeeScreen(ability: AppAbility, screenId: ScreenId, org: OrgFeatures): boolean {
  const requirement = screenRequirement(screenId);
  if (!requirement) return false;
  return featuresAllow(requirement, org) && requirement.groups.every((group) => holdsGroup(ability, group));
}

/** Spec 2: the order in which /home looks for the first screen the user may see. */
export const HOME_ORDER = [
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
] as const satisfies readonly ScreenId[];

export const HOME_FALLBACK = 'directaccess' satisfies ScreenId;

// vpn-devices heads the order only for VPN-only organizations; with IoT on, home starts at dashboards.
function isHomeCandidate(screenId: ScreenId, org: OrgFeatures): boolean {
  return screenId !== 'vpn-devices' || !org.iot;
}

/** The screen /home redirects to. */
export function homeScreen(ability: AppAbility, org: OrgFeatures): ScreenId {
  const first = HOME_ORDER.find(
    (screenId) => isHomeCandidate(screenId, org) && canSeeScreen(ability, screenId, org),
  );
  return first ?? HOME_FALLBACK;
}
