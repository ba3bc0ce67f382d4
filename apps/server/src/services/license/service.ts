import type { license } from '@edgeport/contract';
import type { Action, ResourceType } from '@edgeport/permissions';
import type { Config } from '../../config.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../http/errors.ts';
import { abilityIn, type Principal } from '../../http/principal.ts';
import { recordAudit } from '../audit/service.ts';
import { createDevice } from '../core/devices/provisioning.ts';
import { authorizeAsRealmOperator, authorizeInOrganization } from '../core/organizations/service.ts';
import type { OrganizationRow } from '../core/organizations/store.ts';
import { assertWithinLimit } from '../limits/enforce.ts';
import { usablePreset } from '../mappings/presets.ts';
import { scopeOf } from '../mappings/service.ts';
import { createGatewayForDevice } from '../vpn/gateways/provisioning.ts';
import { announceRevocation, issueDeviceCredentials, revokeDeviceCredentials } from './device-credentials.ts';
import { brokerUrls, edgeConfiguration } from './edge-config.ts';
import { generateActivationKey, maskActivationKey, normalizeActivationKey } from './keys.ts';
import * as store from './store.ts';
import { recordUsage } from './subscriptions/journal.ts';

/** How long an activated device licence runs. */
export const LICENSE_TERM_MS = 365 * 24 * 60 * 60 * 1000;

/** The answer for an unknown key and for a key of another organization: the same, so keys cannot be probed. */
const KEY_NOT_FOUND = 'activation key not found';

/** The status the caller sees: an ACTIVE licence past its expiry is EXPIRED. */
export function effectiveStatus(
  row: Pick<store.LicenseRow, 'status' | 'expiresAt'>,
  now = new Date(),
): license.DeviceLicenseStatus {
  if (row.status === 'ACTIVE' && row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return row.status;
}

export function toLicense(
  row: store.LicenseWithDevice,
  showKey: boolean,
  now = new Date(),
): license.DeviceLicense {
  return {
    id: row.id,
    status: effectiveStatus(row, now),
    activationKey: showKey ? row.activationKey : maskActivationKey(row.activationKey),
    device: row.deviceId && row.deviceLabel !== null ? { id: row.deviceId, label: row.deviceLabel } : null,
    vpn: row.vpn,
    autorenew: row.autorenew,
    activatedAt: row.activatedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Runs `work` in a transaction; a unique violation (a label taken by a concurrent call) answers 409. */
async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (transaction) => work(transaction as unknown as Db));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('label: another device of this organization has this label');
    throw error;
  }
}

/** The organization once the caller holds one of the given rights there (403 naming the first when none). */
export async function authorizeAny(
  db: Db,
  principal: Principal,
  ref: string,
  rights: [Action, ResourceType][],
): Promise<OrganizationRow> {
  let refusal: unknown;
  for (const [action, resource] of rights) {
    try {
      return await authorizeInOrganization(db, principal, ref, action, resource);
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 403) throw error;
      refusal ??= error;
    }
  }
  throw refusal;
}

/** A preset the organization may give its devices (its own, or one an ancestor shares), with its model paths. */
async function usablePresetOf(db: Db, org: OrganizationRow, id: string) {
  if (!(await usablePreset(db, await scopeOf(db, org), id))) return undefined;
  return store.presetWithPaths(db, id);
}

function mayCreateDevices(principal: Principal, org: OrganizationRow): boolean {
  return abilityIn(principal, org).can('CREATE', 'devices');
}

/** The organization's device licences, paged; keys are masked unless the caller may CREATE devices. */
export async function listLicenses(
  db: Db,
  principal: Principal,
  ref: string,
  query: license.DeviceLicenseListQuery,
  now: Date,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const showKeys = mayCreateDevices(principal, org);
  const page = await store.pageOfLicenses(db, org.id, query, { searchKeys: showKeys, now });
  return { ...page, items: page.items.map((row) => toLicense(row, showKeys, now)) };
}

/** The licence of an activation key (READ or CREATE devices); another organization's key answers like an unknown one. */
export async function licenseOfKey(
  db: Db,
  principal: Principal,
  ref: string,
  activationKey: string,
  now: Date,
) {
  const org = await authorizeAny(db, principal, ref, [
    ['CREATE', 'devices'],
    ['READ', 'devices'],
  ]);
  const row = await store.findLicenseByKey(db, org.id, normalizeActivationKey(activationKey));
  if (!row) throw notFound(KEY_NOT_FOUND);
  return toLicense(row, true, now);
}

/**
 * Activates a device licence (CREATE devices): in one transaction the device is created, its preset bound, its MQTT
 * credentials issued and the licence marked ACTIVE for a year — or, for a key that came with a licence (a devices
 * product), until that licence's expiry; such a key works only while its licence is ACTIVE. The password is in the
 * answer only. `now` is the server clock.
 */
export async function activate(
  db: Db,
  config: Config,
  principal: Principal,
  ref: string,
  input: license.ActivationRequest,
  vpn: boolean,
  now: Date,
): Promise<license.Activation> {
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'devices');
  const key = normalizeActivationKey(input.activationKey);
  const label = input.label.trim();
  if (!label) throw badRequest('body/label must not be blank');

  const result = await inTransaction(db, async (tx) => {
    const licence = await store.findLicenseByKey(tx, org.id, key);
    if (!licence) throw notFound(KEY_NOT_FOUND);
    const status = effectiveStatus(licence, now);
    if (status === 'ACTIVE') throw conflict('activationKey: this activation key is already in use');
    if (status === 'EXPIRED') throw conflict('activationKey: this activation key has expired');
    if (licence.vpn !== vpn) {
      throw conflict(
        vpn
          ? 'activationKey: this is not a VPN device licence; activate it through /deviceLicenses/activate'
          : 'activationKey: this is a VPN device licence; activate it through /deviceLicenses/vpn/activate',
      );
    }
    const parent = licence.licenseId ? await store.parentLicense(tx, licence.licenseId) : undefined;
    if (parent && parent.status !== 'ACTIVE') {
      throw conflict(
        `activationKey: its licence ${parent.licenseCode} is ${parent.status}` +
          (parent.status === 'ISSUED' ? '; activate the licence first' : ''),
      );
    }
    const preset = input.presetId ? await usablePresetOf(tx, org, input.presetId) : undefined;
    if (input.presetId && !preset) throw notFound(`body/presetId: preset '${input.presetId}' not found`);
    if (await store.labelTaken(tx, org.id, label)) {
      throw conflict(`label: another device of this organization is labelled '${label}'`);
    }
    await assertWithinLimit(tx, org.id, 'devices');
    const device = await createDevice(tx, org.id, label, {
      serialNumber: input.serialNumber?.trim() ?? '',
      description: input.description ?? '',
    });
    if (preset) await store.bindPreset(tx, device.id, preset.id);
    const credentials = await issueDeviceCredentials(tx, device.id);
    const activatedAt = now;
    const expiresAt = parent?.expiresAt ?? new Date(activatedAt.getTime() + LICENSE_TERM_MS);
    const activated = await store.activateLicense(tx, licence.id, {
      deviceId: device.id,
      activatedAt,
      expiresAt,
    });
    if (!activated) throw conflict('activationKey: this activation key is already in use');
    // A VPN device licence makes the device a gateway (remote access) in the same transaction.
    if (vpn) await createGatewayForDevice(tx, org.id, device);
    await recordUsage(tx, {
      organizationId: org.id,
      resourceType: 'devices',
      delta: 1,
      reason: 'device.activated',
      subjectId: device.id,
    });
    return { licence: activated, device: { ...device, presetId: preset?.id ?? null }, preset, credentials };
  });

  const { licence, device, preset, credentials } = result;
  const masked = maskActivationKey(licence.activationKey);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'devices.create',
    resourceType: 'devices',
    resourceId: device.id,
    resourceName: device.label,
    detail: { through: 'activation', licenseId: licence.id, presetId: device.presetId, vpn },
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'deviceLicenses.activate',
    resourceType: 'deviceLicenses',
    resourceId: licence.id,
    resourceName: masked,
    detail: {
      deviceId: device.id,
      deviceLabel: device.label,
      vpn,
      expiresAt: licence.expiresAt?.toISOString(),
    },
  });
  const urls = brokerUrls(config);
  return {
    license: toLicense({ ...licence, deviceLabel: device.label }, true, now),
    device: {
      id: device.id,
      organizationId: device.organizationId,
      label: device.label,
      serialNumber: device.serialNumber,
      description: device.description,
      presetId: device.presetId,
      createdAt: device.createdAt.toISOString(),
    },
    credentials: { username: credentials.username, password: credentials.password, ...urls },
    edgeConfiguration: edgeConfiguration(device, preset, urls),
  };
}

/**
 * Deletes a device licence (DELETE devices). An ACTIVE licence's device loses its MQTT credentials, so it can no
 * longer connect (an open connection is dropped by the broker); the device and its data stay.
 */
export async function deleteLicense(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'devices');
  const licence = await store.findLicense(db, org.id, id);
  if (!licence) throw notFound(`device licence '${id}' not found`);
  const revoked = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const had = licence.deviceId ? await revokeDeviceCredentials(tx, licence.deviceId) : false;
    if (!(await store.deleteLicense(tx, org.id, id))) throw notFound(`device licence '${id}' not found`);
    return had;
  });
  if (licence.deviceId) announceRevocation(licence.deviceId);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'deviceLicenses.delete',
    resourceType: 'deviceLicenses',
    resourceId: id,
    resourceName: maskActivationKey(licence.activationKey),
    detail: {
      status: effectiveStatus(licence),
      vpn: licence.vpn,
      deviceId: licence.deviceId,
      deviceLabel: licence.deviceLabel,
      credentialsRevoked: revoked,
    },
  });
}

/** Sets autorenew on VPN device licences (UPDATE devices); every id must be a VPN licence of the organization. */
export async function setVpnAutorenew(
  db: Db,
  principal: Principal,
  ref: string,
  input: license.AutorenewRequest,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devices');
  const ids = [...new Set(input.ids.map((id) => id.toLowerCase()))];
  const found = await store.licensesAmong(db, org.id, ids);
  const byId = new Map(found.map((row) => [row.id, row]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw notFound(`body/ids: device licence '${missing}' not found`);
  const notVpn = found.find((row) => !row.vpn);
  if (notVpn) throw conflict(`body/ids: device licence '${notVpn.id}' is not a VPN licence`);
  const changing = found.filter((row) => row.autorenew !== input.autorenew);
  await store.setAutorenew(
    db,
    org.id,
    changing.map((row) => row.id),
    input.autorenew,
  );
  for (const row of changing) {
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: 'deviceLicenses.autorenew',
      resourceType: 'deviceLicenses',
      resourceId: row.id,
      resourceName: maskActivationKey(row.activationKey),
      detail: { autorenew: input.autorenew, before: row.autorenew },
    });
  }
  const showKeys = mayCreateDevices(principal, org);
  const after = await store.licensesAmong(db, org.id, ids);
  const order = new Map(ids.map((id, index) => [id, index]));
  after.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { items: after.map((row) => toLicense(row, showKeys)) };
}

/**
 * Issue 32: a key without a licence is a free device. Only the realm's operator issues them (its own organization,
 * CREATE devices there); every other organization activates the keys that come with a licence it holds (a dealer's
 * devices product, issued and charged through the dealer area).
 */
export const UNLICENSED_KEYS_REFUSED =
  "only the realm's operator issues activation keys without a licence: activate a key that came with a licence " +
  '(your dealer issues licences of devices products)';

const isForbidden = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.statusCode === 403;

/** The organization once the caller may issue keys without a licence there (CREATE devices, as the realm's operator). */
async function authorizeUnlicensedKeys(db: Db, principal: Principal, ref: string): Promise<OrganizationRow> {
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'devices');
  try {
    await authorizeAsRealmOperator(db, principal, 'CREATE', 'devices');
  } catch (error) {
    throw isForbidden(error) ? forbidden(UNLICENSED_KEYS_REFUSED) : error;
  }
  return org;
}

/** Whether the caller may issue keys without a licence in the organization, and why not (READ or CREATE devices). */
export async function keyIssuing(db: Db, principal: Principal, ref: string): Promise<license.KeyIssuing> {
  await authorizeAny(db, principal, ref, [
    ['CREATE', 'devices'],
    ['READ', 'devices'],
  ]);
  try {
    await authorizeUnlicensedKeys(db, principal, ref);
    return { mayIssue: true, reason: null };
  } catch (error) {
    if (isForbidden(error)) return { mayIssue: false, reason: error.message };
    throw error;
  }
}

/** New AVAILABLE device licences with fresh keys and no licence behind them: the realm's operator only. */
export async function issueLicenses(db: Db, principal: Principal, ref: string, input: license.IssueRequest) {
  const org = await authorizeUnlicensedKeys(db, principal, ref);
  const vpn = input.vpn ?? false;
  const rows = await insertWithFreshKeys(db, org.id, input.count, vpn);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'deviceLicenses.issue',
    resourceType: 'deviceLicenses',
    resourceId: null,
    resourceName: `${rows.length} device licence(s)`,
    detail: { count: rows.length, vpn, keys: rows.map((row) => maskActivationKey(row.activationKey)) },
  });
  return { items: rows.map((row) => toLicense({ ...row, deviceLabel: null }, true)) };
}

/** Inserts `count` licences, drawing a new key for the rare one that collides with an existing key. */
export async function insertWithFreshKeys(
  db: Db,
  organizationId: string,
  count: number,
  vpn: boolean,
): Promise<store.LicenseRow[]> {
  const out: store.LicenseRow[] = [];
  for (let attempt = 0; attempt < 5 && out.length < count; attempt += 1) {
    const wanted = count - out.length;
    const keys = new Set<string>();
    while (keys.size < wanted) keys.add(generateActivationKey());
    out.push(
      ...(await store.insertLicenses(
        db,
        [...keys].map((activationKey) => ({ organizationId, activationKey, vpn })),
      )),
    );
  }
  if (out.length < count) throw new Error('could not draw unique activation keys');
  return out;
}
