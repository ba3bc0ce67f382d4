import { readItem, STORAGE_KEYS, writeItem } from '../../shared/storage/keys.ts';

/** Spec 3: the experimental feature flags. */
export const FEATURE_FLAGS = [
  'structs',
  'highFreq',
  'deLanguage',
  'esLanguage',
  'frLanguage',
  'jpLanguage',
  'developerUI',
  'formulaMapping',
  'developerUI_DEFreeGridInfo',
  'ipFilter',
  'loginSplashVideoBackground',
  'editorInspector',
  'dataTable',
  'VPNnetworkSize',
  'showVpnIp',
  'barChartTimeDrill',
  'deviceServiceAccountAssociation',
  'groupPoliciesDisabled',
  'showMapByDefault',
  'hideDeviceSerialNumber',
  'hideDeviceDescription',
  'hideVpnExportConfig',
  'credits',
  'deviceTableWidget',
  'mapAlarmWidget',
  'widgetPermissions',
  'vpnTcpOption',
] as const;

export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
export type FeatureFlags = Record<FeatureFlag, boolean>;

/** Spec 3: everything is off until chosen, except dataTable. */
export const DEFAULT_ON: ReadonlySet<FeatureFlag> = new Set<FeatureFlag>(['dataTable']);

export function flagKey(flag: FeatureFlag): string {
  return `${STORAGE_KEYS.featureFlagPrefix}${flag}`;
}

export function isFeatureEnabled(flag: FeatureFlag, storage: Storage = window.localStorage): boolean {
  const stored = readItem(storage, flagKey(flag));
  if (stored === 'true') return true;
  if (stored === 'false') return false;
  return DEFAULT_ON.has(flag);
}

export function readFeatureFlags(storage: Storage = window.localStorage): FeatureFlags {
  return Object.fromEntries(
    FEATURE_FLAGS.map((flag) => [flag, isFeatureEnabled(flag, storage)]),
  ) as FeatureFlags;
}

export function writeFeatureFlags(
  flags: Partial<FeatureFlags>,
  storage: Storage = window.localStorage,
): void {
  for (const flag of FEATURE_FLAGS) {
    const value = flags[flag];
    if (value !== undefined) writeItem(storage, flagKey(flag), String(value));
  }
}

export function allFlags(value: boolean): FeatureFlags {
  return Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, value])) as FeatureFlags;
}
