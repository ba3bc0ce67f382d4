import { limits } from '@edgeport/contract';
import { buildAbility, parseRptRules } from '@edgeport/permissions';
import type { TelemetryRetention } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, forbidden } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { effectivePermissions } from '../../identity/rpt.ts';
import { recordAudit } from '../audit/service.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import type { OrganizationRow } from '../core/organizations/store.ts';
import * as store from './store.ts';

const { RETENTION_KEY, STORED_LIMIT_KEYS } = limits;

/** Spec 5 and 8: creating or replacing limits without any value. */
export const UNDEFINED_LIMITS = 'undefined limits';

/**
 * Called after an organization's changed limits are committed: ingest on every instance drops its cached data-point
 * limit.
 */
export type LimitsChanged = (organizationId: string) => Promise<void> | void;

function toLimits(
  organizationId: string,
  row: store.LimitsRow | undefined,
  usage: limits.Limits['usage'],
  retention: TelemetryRetention,
): limits.Limits {
  const values = Object.fromEntries(
    STORED_LIMIT_KEYS.map((key) => [key, row?.limits[key] ?? null]),
  ) as limits.Limits['limits'];
  return {
    organizationId,
    defined: row !== undefined,
    limits: values,
    retention: {
      days: values.telemetryRetentionDays ?? retention.defaultDays,
      defaultDays: retention.defaultDays,
      maxDays: retention.maxDays,
      rollupDays: retention.rollupDays,
    },
    usage,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

async function usageOf(db: Db, organizationId: string): Promise<limits.Limits['usage']> {
  const [devices, users, today] = await Promise.all([
    store.countDevices(db, organizationId),
    store.countMembers(db, organizationId),
    store.usageOfDay(db, organizationId, store.utcDay()),
  ]);
  return {
    devices,
    users,
    dashboards: 0,
    dataPointsPerDay: today.dataPoints,
    notificationsPerDay: today.notifications,
  };
}

/** The organization's limits and what it uses of them (READ organizations). */
export async function getLimits(
  db: Db,
  principal: Principal,
  ref: string,
  retention: TelemetryRetention,
): Promise<limits.Limits> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  const [row, usage] = await Promise.all([store.findLimits(db, org.id), usageOf(db, org.id)]);
  return toLimits(org.id, row, usage, retention);
}

/**
 * The given keys of the body (absent keys are unlimited, an absent retention is the server's default); at least
 * one, else 'undefined limits'. A retention above the server's maximum is refused.
 */
function definedValues(input: limits.LimitsInput, retention: TelemetryRetention): store.StoredLimits {
  const values: store.StoredLimits = {};
  for (const key of STORED_LIMIT_KEYS) {
    const value = input[key];
    if (value !== undefined) values[key] = value;
  }
  if (Object.keys(values).length === 0) throw badRequest(UNDEFINED_LIMITS);
  const days = values[RETENTION_KEY];
  if (typeof days === 'number' && days > retention.maxDays)
    throw badRequest(
      `body/${RETENTION_KEY} must be at most ${retention.maxDays} days (the server's maximum)`,
    );
  return values;
}

/**
 * UPDATE organizations in the target, and that right must come from an ancestor: an organization does not set its
 * own limits, except a top-level organization (it has nobody above it).
 */
async function authorizeLimitChange(db: Db, principal: Principal, ref: string): Promise<OrganizationRow> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  if (org.parentId === null) return org;
  const { inherited } = await effectivePermissions(db, principal.userId, org);
  const fromAbove = buildAbility(parseRptRules(inherited), {
    iot: org.iotEnabled,
    vpn: org.vpnEnabled,
  });
  if (!fromAbove.can('UPDATE', 'organizations')) {
    throw forbidden("an organization's limits are set from an organization above it");
  }
  return org;
}

async function audit(
  db: Db,
  principal: Principal,
  org: OrganizationRow,
  verb: 'create' | 'update',
  values: store.StoredLimits,
  before: store.StoredLimits | null,
) {
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: `limits.${verb}`,
    resourceType: 'organizations',
    resourceId: org.id,
    resourceName: org.name,
    detail: before === null ? { limits: values } : { limits: values, before },
  });
}

/** Creates the organization's limits (UPDATE organizations from an ancestor); 409 when it has some already. */
export async function createLimits(
  db: Db,
  principal: Principal,
  ref: string,
  input: limits.LimitsInput,
  retention: TelemetryRetention,
  changed: LimitsChanged = () => {},
): Promise<limits.Limits> {
  const org = await authorizeLimitChange(db, principal, ref);
  const values = definedValues(input, retention);
  const row = await store.insertLimits(db, org.id, values);
  if (!row) throw conflict('the organization has limits already; replace them with PUT');
  await changed(org.id);
  await audit(db, principal, org, 'create', values, null);
  return toLimits(org.id, row, await usageOf(db, org.id), retention);
}

/** Replaces (or creates) the organization's limits (UPDATE organizations from an ancestor). */
export async function replaceLimits(
  db: Db,
  principal: Principal,
  ref: string,
  input: limits.LimitsInput,
  retention: TelemetryRetention,
  changed: LimitsChanged = () => {},
): Promise<limits.Limits> {
  const org = await authorizeLimitChange(db, principal, ref);
  const values = definedValues(input, retention);
  const before = await store.findLimits(db, org.id);
  const row = await store.upsertLimits(db, org.id, values);
  await changed(org.id);
  await audit(db, principal, org, 'update', values, before?.limits ?? null);
  return toLimits(org.id, row, await usageOf(db, org.id), retention);
}
