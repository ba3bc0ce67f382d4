import type { license } from '@edgeport/contract';
import { and, count, eq, gt, ilike, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../db/paging.ts';
import { deviceLicenses, devices, licenses, modelVersions, presets } from '../../db/schema.ts';

export type LicenseRow = typeof deviceLicenses.$inferSelect;
export type LicenseWithDevice = LicenseRow & { deviceLabel: string | null };

const SORT_COLUMNS = {
  createdAt: deviceLicenses.createdAt,
  activatedAt: deviceLicenses.activatedAt,
  expiresAt: deviceLicenses.expiresAt,
  status: deviceLicenses.status,
};

const columns = {
  id: deviceLicenses.id,
  organizationId: deviceLicenses.organizationId,
  activationKey: deviceLicenses.activationKey,
  licenseId: deviceLicenses.licenseId,
  deviceId: deviceLicenses.deviceId,
  vpn: deviceLicenses.vpn,
  autorenew: deviceLicenses.autorenew,
  status: deviceLicenses.status,
  activatedAt: deviceLicenses.activatedAt,
  expiresAt: deviceLicenses.expiresAt,
  createdAt: deviceLicenses.createdAt,
  deviceLabel: devices.label,
};

/** The licences in a status as the caller sees it: an ACTIVE licence past its expiry counts as EXPIRED. */
function inStatus(status: license.DeviceLicenseStatus, now: Date): SQL | undefined {
  const active = eq(deviceLicenses.status, 'ACTIVE');
  if (status === 'AVAILABLE') return eq(deviceLicenses.status, 'AVAILABLE');
  if (status === 'ACTIVE')
    return and(active, or(isNull(deviceLicenses.expiresAt), gt(deviceLicenses.expiresAt, now)));
  return or(eq(deviceLicenses.status, 'EXPIRED'), and(active, lte(deviceLicenses.expiresAt, now)));
}

export async function pageOfLicenses(
  db: Db,
  organizationId: string,
  query: license.DeviceLicenseListQuery,
  options: { searchKeys: boolean; now: Date },
) {
  const window = pageWindow(query);
  const conditions: (SQL | undefined)[] = [eq(deviceLicenses.organizationId, organizationId)];
  if (query.status) conditions.push(inStatus(query.status, options.now));
  if (query.vpn !== undefined) conditions.push(eq(deviceLicenses.vpn, query.vpn));
  if (query.search?.trim()) {
    const pattern = containsPattern(query.search);
    // A caller who sees masked keys cannot search them either (that would reveal them character by character).
    conditions.push(
      options.searchKeys
        ? or(ilike(deviceLicenses.activationKey, pattern), ilike(devices.label, pattern))
        : ilike(devices.label, pattern),
    );
  }
  const where = and(...conditions);
  const order = orderOf(
    { ...query, order: query.order ?? (query.sort ? 'asc' : 'desc') },
    SORT_COLUMNS,
    'createdAt',
    deviceLicenses.id,
  );
  return fetchPage(
    window,
    db
      .select(columns)
      .from(deviceLicenses)
      .leftJoin(devices, eq(devices.id, deviceLicenses.deviceId))
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db
      .select({ total: count() })
      .from(deviceLicenses)
      .leftJoin(devices, eq(devices.id, deviceLicenses.deviceId))
      .where(where),
  );
}

export async function findLicenseByKey(
  db: Db,
  organizationId: string,
  activationKey: string,
): Promise<LicenseWithDevice | undefined> {
  const [row] = await db
    .select(columns)
    .from(deviceLicenses)
    .leftJoin(devices, eq(devices.id, deviceLicenses.deviceId))
    .where(
      and(eq(deviceLicenses.organizationId, organizationId), eq(deviceLicenses.activationKey, activationKey)),
    );
  return row;
}

export async function findLicense(
  db: Db,
  organizationId: string,
  id: string,
): Promise<LicenseWithDevice | undefined> {
  const [row] = await db
    .select(columns)
    .from(deviceLicenses)
    .leftJoin(devices, eq(devices.id, deviceLicenses.deviceId))
    .where(and(eq(deviceLicenses.organizationId, organizationId), eq(deviceLicenses.id, id)));
  return row;
}

export async function licensesAmong(
  db: Db,
  organizationId: string,
  ids: string[],
): Promise<LicenseWithDevice[]> {
  if (ids.length === 0) return [];
  return db
    .select(columns)
    .from(deviceLicenses)
    .leftJoin(devices, eq(devices.id, deviceLicenses.deviceId))
    .where(and(eq(deviceLicenses.organizationId, organizationId), inArray(deviceLicenses.id, ids)));
}

export async function insertLicenses(
  db: Db,
  rows: { organizationId: string; activationKey: string; vpn: boolean }[],
): Promise<LicenseRow[]> {
  if (rows.length === 0) return [];
  return db.insert(deviceLicenses).values(rows).onConflictDoNothing().returning();
}

/** Binds an AVAILABLE licence to its new device; answers undefined when it is no longer AVAILABLE (a race). */
export async function activateLicense(
  db: Db,
  id: string,
  values: { deviceId: string; activatedAt: Date; expiresAt: Date },
): Promise<LicenseRow | undefined> {
  const [row] = await db
    .update(deviceLicenses)
    .set({ ...values, status: 'ACTIVE' })
    .where(and(eq(deviceLicenses.id, id), eq(deviceLicenses.status, 'AVAILABLE')))
    .returning();
  return row;
}

export async function deleteLicense(db: Db, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(deviceLicenses)
    .where(and(eq(deviceLicenses.organizationId, organizationId), eq(deviceLicenses.id, id)))
    .returning({ id: deviceLicenses.id });
  return rows.length > 0;
}

export async function setAutorenew(db: Db, organizationId: string, ids: string[], autorenew: boolean) {
  if (ids.length === 0) return;
  await db
    .update(deviceLicenses)
    .set({ autorenew })
    .where(and(eq(deviceLicenses.organizationId, organizationId), inArray(deviceLicenses.id, ids)));
}

/** Whether a device of the organization already carries the label. */
export async function labelTaken(db: Db, organizationId: string, label: string): Promise<boolean> {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.organizationId, organizationId), eq(devices.label, label)));
  return row !== undefined;
}

export async function bindPreset(db: Db, deviceId: string, presetId: string): Promise<void> {
  await db.update(devices).set({ presetId }).where(eq(devices.id, deviceId));
}

/** A preset (known to be usable by the organization) with its mappings and the paths of its model version. */
export async function presetWithPaths(db: Db, id: string) {
  const [row] = await db
    .select({
      id: presets.id,
      name: presets.name,
      mappings: presets.mappings,
      deviceConfiguration: presets.deviceConfiguration,
      paths: modelVersions.paths,
    })
    .from(presets)
    .leftJoin(
      modelVersions,
      and(eq(modelVersions.modelId, presets.modelId), eq(modelVersions.version, presets.modelVersion)),
    )
    .where(eq(presets.id, id));
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    mappings: row.mappings,
    deviceConfiguration: row.deviceConfiguration,
    paths: row.paths ?? [],
  };
}

/** The licence (of a devices product) a device licence came with: its status and term decide the key's. */
export async function parentLicense(db: Db, id: string) {
  const [row] = await db
    .select({ licenseCode: licenses.licenseCode, status: licenses.status, expiresAt: licenses.expiresAt })
    .from(licenses)
    .where(eq(licenses.id, id));
  return row;
}
