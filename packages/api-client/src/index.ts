import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths as AlarmsPaths } from './generated/alarms.ts';
import type { paths as AuditPaths } from './generated/audit.ts';
import type { paths as CorePaths } from './generated/core.ts';
import type { paths as DashboardPaths } from './generated/dashboard.ts';
import type { paths as LicensePaths } from './generated/license.ts';
import type { paths as LimitsPaths } from './generated/limits.ts';
import type { paths as MappingsPaths } from './generated/mappings.ts';
import type { paths as NotificationsPaths } from './generated/notifications.ts';
import type { paths as PlatformPaths } from './generated/platform.ts';
import type { paths as ThemePaths } from './generated/theme.ts';
import type { paths as TriggerManagerPaths } from './generated/triggermanager.ts';
import type { paths as LegacyVpnPaths } from './generated/vpn.ts';
import type { paths as VpnPaths } from './generated/vpn2.ts';

export type {
  AlarmsPaths,
  AuditPaths,
  CorePaths,
  DashboardPaths,
  LegacyVpnPaths,
  LicensePaths,
  LimitsPaths,
  MappingsPaths,
  NotificationsPaths,
  PlatformPaths,
  ThemePaths,
  TriggerManagerPaths,
  VpnPaths,
};

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body a successful (200) call of `Path` with `Method` answers with. */
export type OkBody<
  Paths,
  Path extends keyof Paths,
  Method extends keyof Paths[Path],
> = Paths[Path][Method] extends {
  responses: { 200: infer Ok };
}
  ? JsonOf<Ok>
  : never;

/** Typed client of the core service; paths carry the `/svc/core` base. */
export function createCoreClient(options: ClientOptions = {}) {
  return createClient<CorePaths>(options);
}

/** Typed client of the theme service; paths carry the `/svc/theme` base. */
export function createThemeClient(options: ClientOptions = {}) {
  return createClient<ThemePaths>(options);
}

/** Typed client of the audit service; paths carry the `/svc/audit` base. */
export function createAuditClient(options: ClientOptions = {}) {
  return createClient<AuditPaths>(options);
}

/** Typed client of the mappings service (models, presets); paths carry the `/svc/mappings` base. */
export function createMappingsClient(options: ClientOptions = {}) {
  return createClient<MappingsPaths>(options);
}

/** Typed client of the platform service (device tags, status, data); paths carry the `/svc/platform` base. */
export function createPlatformClient(options: ClientOptions = {}) {
  return createClient<PlatformPaths>(options);
}

/** Typed client of the licence service; paths carry the `/svc/license` base. */
export function createLicenseClient(options: ClientOptions = {}) {
  return createClient<LicensePaths>(options);
}

/** Typed client of the alarm service (alarms, alarm rules); paths carry the `/svc/alarms` base. */
export function createAlarmsClient(options: ClientOptions = {}) {
  return createClient<AlarmsPaths>(options);
}

/** Typed client of the notification service (rules, deliveries, channel settings); paths carry `/svc/notifications`. */
export function createNotificationsClient(options: ClientOptions = {}) {
  return createClient<NotificationsPaths>(options);
}

/** Typed client of the trigger manager; paths carry the `/svc/triggermanager` base. */
export function createTriggerManagerClient(options: ClientOptions = {}) {
  return createClient<TriggerManagerPaths>(options);
}

/** Typed client of the limits service; paths carry the `/svc/limits` base. */
export function createLimitsClient(options: ClientOptions = {}) {
  return createClient<LimitsPaths>(options);
}

/** Typed client of the gateway/VPN service; paths carry the `/svc/vpn2` base. */
export function createVpnClient(options: ClientOptions = {}) {
  return createClient<VpnPaths>(options);
}

/** Typed client of the legacy remote-access login; paths carry the `/svc/vpn` base. */
export function createLegacyVpnClient(options: ClientOptions = {}) {
  return createClient<LegacyVpnPaths>(options);
}

/** Typed client of the dashboard service (dashboards, flows, widgets, assets); paths carry the `/svc/dashboard` base. */
export function createDashboardClient(options: ClientOptions = {}) {
  return createClient<DashboardPaths>(options);
}
